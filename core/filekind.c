/* filekind.c - recognition of non-model files by content (filekind.h). */
#include "filekind.h"

#include <string.h>
#include <strings.h>

#include "cursor.h"
#include "format.h"

/* Bytes looked at for the weak signs (text). */
#define SNIFF_WINDOW 4096u

static const wl_file_kind K_BIGF = { "big", "BIG archive (BIGF: Generals, Zero Hour, BFME)", true };
static const wl_file_kind K_BIG4 = { "big", "BIG archive (BIG4: BFME II, C&C 3)", true };
static const wl_file_kind K_PBO = { "pbo", "PBO archive (Arma, DayZ)", true };
static const wl_file_kind K_PNG = { "png", "PNG image", false };
static const wl_file_kind K_JPEG = { "jpeg", "JPEG image", false };
static const wl_file_kind K_DDS = { "dds", "DDS texture", false };
static const wl_file_kind K_GIF = { "gif", "GIF image", false };
static const wl_file_kind K_TGA = { "tga", "TGA image", false };
static const wl_file_kind K_BMP = { "bmp", "BMP image", false };
static const wl_file_kind K_ZIP = { "zip", "ZIP archive", false };
static const wl_file_kind K_7Z = { "7z", "7-Zip archive", false };
static const wl_file_kind K_RAR = { "rar", "RAR archive", false };
static const wl_file_kind K_GZIP = { "gzip", "gzip file", false };
static const wl_file_kind K_RIFF = { "riff", "RIFF file (WAV, AVI)", false };
static const wl_file_kind K_OGG = { "ogg", "Ogg file", false };
static const wl_file_kind K_PDF = { "pdf", "PDF document", false };
static const wl_file_kind K_ELF = { "elf", "ELF executable", false };
static const wl_file_kind K_TEXT = { "text", "text file", false };

/* Magic bytes at offset 0.  Sources: PNG (ISO/IEC 15948 §5.2 signature),
 * JPEG (ITU T.81 SOI FFD8 + a marker), DDS (Microsoft "DDS Programming
 * Guide": "DDS " magic), GIF (GIF89a spec §17), ZIP (PKWARE APPNOTE
 * 4.3.7 local header), 7z (7zFormat.txt), RAR (rarfile technote), gzip
 * (RFC 1952 §2.3.1), RIFF (WAV/AVI), Ogg (RFC 3533), PDF, ELF, BIG (OpenSAGE
 * BigArchive: "BIGF"/"BIG4"), PBO (BI wiki "PBO File Format": a first
 * entry with an empty name and the packing method 0x56657273 'Vers',
 * stored little-endian as "sreV"). */
typedef struct magic {
	const char *bytes;
	uint8_t len;
	const wl_file_kind *kind;
} magic;

static const magic MAGICS[] = {
	{ "BIGF", 4, &K_BIGF },
	{ "BIG4", 4, &K_BIG4 },
	{ "\0sreV", 5, &K_PBO },
	{ "\x89PNG\r\n\x1a\n", 8, &K_PNG },
	{ "\xff\xd8\xff", 3, &K_JPEG },
	{ "DDS ", 4, &K_DDS },
	{ "GIF87a", 6, &K_GIF },
	{ "GIF89a", 6, &K_GIF },
	{ "PK\x03\x04", 4, &K_ZIP },
	{ "7z\xbc\xaf\x27\x1c", 6, &K_7Z },
	{ "Rar!\x1a\x07", 6, &K_RAR },
	{ "\x1f\x8b\x08", 3, &K_GZIP },
	{ "RIFF", 4, &K_RIFF },
	{ "OggS", 4, &K_OGG },
	{ "%PDF-", 5, &K_PDF },
	{ "\x7f" "ELF", 4, &K_ELF },
	{ "\xef\xbb\xbf", 3, &K_TEXT }, /* UTF-8 byte order mark */
	{ "\xff\xfe", 2, &K_TEXT },      /* UTF-16 LE byte order mark */
	{ "\xfe\xff", 2, &K_TEXT },      /* UTF-16 BE byte order mark */
};

static int best_model_score(const uint8_t *bytes, uint64_t size)
{
	size_t n;
	const wl_format *const *formats = wl_formats(&n);
	int best = WL_DETECT_NO;
	for (size_t i = 0; i < n; i++) {
		int s = formats[i]->detect ? formats[i]->detect(bytes, size) : WL_DETECT_NO;
		if (s > best)
			best = s;
	}
	return best;
}

/* TGA 2.0 footer (Truevision TGA File Format Specification 2.0, "TGA File
 * Footer"): the last 26 bytes end in "TRUEVISION-XFILE.\0". */
static bool tga_footer(const uint8_t *b, uint64_t size)
{
	static const char sig[18] = "TRUEVISION-XFILE.";
	return size >= 18 + 26 && memcmp(b + size - 18, sig, 18) == 0;
}

/* TGA header (same specification, "TGA File Header", 18 bytes): every
 * field in range - colour map type 0 or 1, image type 1-3 or 9-11 (with a
 * colour map exactly for types 1 and 9), entry size of a colour map 15,
 * 16, 24 or 32, width and height not 0, pixel depth 8, 15, 16, 24 or 32,
 * descriptor bits 6-7 clear - and, for an uncompressed image, the pixels
 * inside the file. */
static bool tga_header(const uint8_t *b, uint64_t size)
{
	if (size < 18)
		return false;
	uint8_t idlen = b[0], cmtype = b[1], type = b[2];
	uint16_t cmlen = wl_le16(b + 5);
	uint8_t cmbits = b[7];
	uint16_t w = wl_le16(b + 12), h = wl_le16(b + 14);
	uint8_t bpp = b[16], desc = b[17];
	bool mapped = type == 1 || type == 9;
	if (cmtype > 1 || !(type == 1 || type == 2 || type == 3 || type == 9 || type == 10 || type == 11))
		return false;
	if ((cmtype == 1) != mapped)
		return false;
	if (cmtype == 1 && cmbits != 15 && cmbits != 16 && cmbits != 24 && cmbits != 32)
		return false;
	if (cmtype == 0 && (cmlen != 0 || cmbits != 0))
		return false;
	if (w == 0 || h == 0 || (desc & 0xC0))
		return false;
	if (bpp != 8 && bpp != 15 && bpp != 16 && bpp != 24 && bpp != 32)
		return false;
	uint64_t need = 18u + idlen + (uint64_t)cmlen * ((cmbits + 7u) / 8u);
	if (type < 9)
		need += (uint64_t)w * h * ((bpp + 7u) / 8u);
	else
		need += 2; /* at least one RLE packet */
	return need <= size;
}

/* BMP (Microsoft BITMAPFILEHEADER): "BM", then the file size (u32 LE),
 * equal to the size of the file. */
static bool bmp_header(const uint8_t *b, uint64_t size)
{
	return size >= 26 && b[0] == 'B' && b[1] == 'M' && wl_le32(b + 2) == size;
}

/* Text: lines - at least one line break - with no NUL and no control byte
 * but tab, line feed, vertical tab, form feed, carriage return and DOS
 * end-of-file (0x1A) in the first SNIFF_WINDOW bytes; bytes 0x80 and above
 * pass (UTF-8, code pages).  A few printable bytes without a line break
 * ("JUNKJUNK") are left to the model readers, which say they are none. */
static bool text(const uint8_t *b, uint64_t size)
{
	uint64_t n = size < SNIFF_WINDOW ? size : SNIFF_WINDOW;
	bool lines = false;
	for (uint64_t i = 0; i < n; i++) {
		uint8_t c = b[i];
		if ((c < 0x20 && !(c >= 0x09 && c <= 0x0D) && c != 0x1A) || c == 0x7F)
			return false;
		lines |= c == '\n' || c == '\r';
	}
	return lines;
}

const wl_file_kind *wl_file_kind_by_extension(const char *path)
{
	const char *dot = path ? strrchr(path, '.') : NULL;
	const char *slash = path ? strrchr(path, '/') : NULL;
	if (!dot || (slash && dot < slash))
		return NULL;
	if (strcasecmp(dot + 1, "big") == 0)
		return &K_BIGF;
	if (strcasecmp(dot + 1, "pbo") == 0)
		return &K_PBO;
	return NULL;
}

const wl_file_kind *wl_file_kind_of(const uint8_t *bytes, uint64_t size, const char *path)
{
	if (size == 0)
		return NULL;
	int score = best_model_score(bytes, size);
	if (score >= WL_DETECT_MAGIC)
		return NULL;
	for (size_t i = 0; i < sizeof MAGICS / sizeof MAGICS[0]; i++) {
		const magic *m = &MAGICS[i];
		if (size >= m->len && memcmp(bytes, m->bytes, m->len) == 0)
			return m->kind;
	}
	if (tga_footer(bytes, size))
		return &K_TGA;
	const wl_file_kind *by_ext = wl_file_kind_by_extension(path);
	if (score == WL_DETECT_NO) {
		if (by_ext)
			return by_ext;
		if (tga_header(bytes, size))
			return &K_TGA;
		if (bmp_header(bytes, size))
			return &K_BMP;
		if (text(bytes, size))
			return &K_TEXT;
	}
	return by_ext;
}
