#!/usr/bin/env python3
"""Writes Tests/DeskKitMetadataTests/Fixtures/charsets/: one page per encoding rule, bytes as served.

Each page's og:title is the text named in the test (CharsetTests.swift), written in the page's encoding.
Run from the repository root.
"""
import os
import subprocess

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

# Pages whose declarations are missing or lie, in the legacy encodings of the issue, converted by iconv:
# the detector (uchardet) must name the encoding. Each has a `<script charset>` attribute, which says
# nothing about the page. The title and description are what the tests read back.
LEGACY = {
    'SHIFT_JIS': ('トヨタ自動車の新型車が発表されました', '東京で開かれた記者会見で、同社の社長は新しい電気自動車の販売計画について説明しました。'),
    'EUC-JP': ('日本経済新聞の今日のニュース', '政府は来年度の予算案について、社会保障費の増加を抑えるための新しい方針を決定しました。'),
    'GBK': ('淘宝网 女装夏季新款连衣裙', '本店销售各种时尚女装，质量保证，价格优惠，欢迎选购。全场包邮，七天无理由退换货。'),
    'GB18030': ('中国青年网 教育频道新闻', '海外留学生看两会：出国前后关注点大不同，很多学生表示更加关心就业和教育政策。'),
    'BIG5': ('台灣新聞網 今日頭條', '行政院今天召開會議，討論颱風過後的災後重建工作，並宣布將提供補助給受災民眾。'),
    'EUC-KR': ('서울시 새 교통 정책 발표', '서울시는 오늘 대중교통 요금 인상 계획을 발표했습니다. 시민들의 의견을 수렴할 예정입니다.'),
    'WINDOWS-1251': ('Новости дня: главное за сутки', 'Сегодня в Москве прошло заседание правительства, на котором обсуждались вопросы бюджета.'),
    'KOI8-R': ('Погода в Санкт-Петербурге на неделю', 'Синоптики обещают дожди и сильный ветер, температура воздуха опустится до пяти градусов.'),
}


def legacy_page(title, description, meta=''):
    return (f'<!DOCTYPE html>\n<html><head>{meta}<title>{title}</title>\n'
            f'<meta name="description" content="{description}">\n'
            f'<script charset="utf-8" src="/app.js"></script></head><body><p>{description}</p></body></html>\n')


def write_iconv(name, text, encoding):
    data = subprocess.run(['iconv', '-f', 'UTF-8', '-t', encoding], input=text.encode(), capture_output=True, check=True)
    with open(f'{OUT}/{name}.html', 'wb') as f:
        f.write(data.stdout)


for enc, (title, description) in LEGACY.items():
    slug = enc.lower()
    write_iconv(f'undeclared-{slug}', legacy_page(title, description), enc)
    # served as UTF-8 (the test gives that header); the page's own meta is right
    write_iconv(f'lying-header-{slug}', legacy_page(title, description, f'<meta charset="{enc}">'), enc)
    # the meta says UTF-8; nothing else declares
    write_iconv(f'lying-meta-{slug}', legacy_page(title, description, '<meta charset="utf-8">'), enc)
# a multi-byte declaration the bytes contradict: GBK bytes declared Shift_JIS
write_iconv('gbk-declared-shift_jis', legacy_page(*LEGACY['GBK'], '<meta charset="shift_jis">'), 'GBK')
print('written to', OUT)
