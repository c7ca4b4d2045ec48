#!/usr/bin/env python3
"""Writes Tests/DeskKitMetadataTests/Fixtures/charsets/: one page per encoding rule, bytes as served.

Each page's og:title is the text named in the test (CharsetTests.swift), written in the page's encoding.
Run from the repository root.
"""
import os

OUT = 'Tests/DeskKitMetadataTests/Fixtures/charsets'
os.makedirs(OUT, exist_ok=True)
FILLER = '<!-- ' + 'padding so that the declaration comes after the first 1024 bytes. ' * 20 + ' -->\n'


def page(title, meta='', filler=False, body='<p>body</p>'):
    return (f'<!DOCTYPE html>\n<html><head>\n{FILLER if filler else ""}{meta}\n'
            f'<meta property="og:title" content="{title}">\n<title>{title}</title>\n</head><body>{body}</body></html>\n')


def write(name, text, encoding, bom=b''):
    with open(f'{OUT}/{name}.html', 'wb') as f:
        f.write(bom + text.encode(encoding))


write('shift_jis-meta-late', page('日本語のタイトル：テスト', '<meta charset="Shift_JIS">', filler=True), 'shift_jis')
write('euc-jp-http-equiv', page('日本語のページ', '<meta http-equiv="Content-Type" content="text/html; charset=EUC-JP">'), 'euc-jp')
write('gbk-gb2312-label', page('中文标题测试', '<meta charset="gb2312">'), 'gbk')
write('windows-1251-http-only', page('Привет, мир'), 'cp1251')
write('koi8-r-meta', page('Заголовок страницы', '<meta http-equiv=content-type content="text/html;charset=koi8-r">'), 'koi8_r')
write('iso-8859-1-meta', page('Café “Müller” – Straße', '<meta charset="iso-8859-1">'), 'cp1252')
write('utf-16le-bom', page('UTF-16 страница ✓', '<meta charset="utf-16">'), 'utf-16-le', bom=b'\xff\xfe')
write('utf-16be-bom', page('UTF-16 big end ✓'), 'utf-16-be', bom=b'\xfe\xff')
write('utf-8-lying-windows-1251', page('Правдивый UTF-8', '<meta charset="windows-1251">'), 'utf-8')
write('undeclared-latin1', page('Crème brûlée à la carte'), 'cp1252')
write('undeclared-utf-8', page('Ünïcödé ✓ 日本'), 'utf-8')
write('utf-8-bom-over-meta', page('BOM wins: ü', '<meta charset="koi8-r">'), 'utf-8', bom=b'\xef\xbb\xbf')
write('meta-in-comment-ignored', page('Crème', '<!-- <meta charset="koi8-r"> -->'), 'cp1252')
print('written to', OUT)
