// libxml2's HTML push parser alone, with SAX callbacks that do nothing, the options and encoding set-up
// DeskKit uses, on the files given: the floor of extraction time, which no work around libxml2 can go below.
// Built and run by Scripts/compare-extract.sh; prints the best of ten passes.
#include <libxml/HTMLparser.h>
#include <libxml/parserInternals.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static void start(void *c, const xmlChar *n, const xmlChar **a) {}
static void end(void *c, const xmlChar *n) {}
static void chars(void *c, const xmlChar *s, int l) {}
static void serr(void *c, xmlErrorPtr e) {}
int main(int argc, char **argv) {
    int n = argc - 1; char **data = malloc(n * sizeof(char*)); long *len = malloc(n * sizeof(long)); long total = 0;
    for (int i = 0; i < n; i++) {
        FILE *f = fopen(argv[i + 1], "rb"); fseek(f, 0, SEEK_END); len[i] = ftell(f); fseek(f, 0, SEEK_SET);
        data[i] = malloc(len[i] + 1); fread(data[i], 1, len[i], f); fclose(f); total += len[i];
    }
    xmlInitParser();
    htmlSAXHandler sax; memset(&sax, 0, sizeof sax);
    sax.initialized = XML_SAX2_MAGIC; sax.startElement = start; sax.endElement = end; sax.characters = chars;
    sax.cdataBlock = chars; sax.serror = serr;
    double best = 1e9;
    for (int r = 0; r < 10; r++) {
        struct timespec t0, t1; clock_gettime(CLOCK_MONOTONIC, &t0);
        for (int i = 0; i < n; i++) {
            htmlParserCtxtPtr ctx = htmlCreatePushParserCtxt(&sax, NULL, NULL, 0, NULL, XML_CHAR_ENCODING_NONE);
            htmlCtxtUseOptions(ctx, HTML_PARSE_RECOVER | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET |
                                    HTML_PARSE_COMPACT | HTML_PARSE_IGNORE_ENC | HTML_PARSE_NODEFDTD);
            xmlSwitchToEncoding(ctx, xmlFindCharEncodingHandler("UTF-8"));
            long at = 0;
            while (at < len[i]) { long s = len[i] - at < 16384 ? len[i] - at : 16384; htmlParseChunk(ctx, data[i] + at, s, 0); at += s; }
            htmlParseChunk(ctx, NULL, 0, 1);
            htmlFreeParserCtxt(ctx);
        }
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double s = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9; if (s < best) best = s;
    }
    printf("libxml2 alone: %d pages, %.0f pages/s, %.1f MB/s of what it is given (%ld KiB a page)\n", n, n / best, total / best / 1e6, total / n / 1024);
    return 0;
}
