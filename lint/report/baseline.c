/* baseline.c - the baseline file; see baseline.h. */
#include "baseline.h"
#include "core/grow.h"

#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/escape.h"
#include "core/file_io.h"
#include "core/path.h"
#include "core/platform.h"
#include "core/platform/printf.h"
#include "core/safe_write.h"

typedef struct entry {
	char *key;
	char *rule;
	uint64_t recorded;   /* from the file, or recorded in this run */
	uint64_t found;      /* after wl_baseline_match */
	bool seen;           /* its file was linted in this run */
	bool removed;        /* replaced by wl_baseline_record */
} entry;

struct wl_baseline {
	char *path;
	char *dir;           /* absolute, normalised folder of path */
	entry *items;
	size_t count, cap;
	size_t loaded;       /* items[0..loaded) came from the file, sorted */
};

/* ----------------------------------------------------------------- paths */

/* Normalises an absolute path: "//", "." and ".." resolved as text. */
static char *normalize(const char *abs)
{
	size_t n = strlen(abs);
	char *out = malloc(n + 2);
	if (!out)
		return NULL;
	memcpy(out, abs, n + 1);
	wl_path_normalize(out);
	return out;
}

char *wl_path_absolute(const char *p)
{
	if (wl_path_is_absolute(p))
		return normalize(p);
	size_t cap = 4096;
	char *cwd = NULL;
	for (;;) {
		char *nb = realloc(cwd, cap);
		if (!nb) {
			free(cwd);
			return NULL;
		}
		cwd = nb;
		if (wl_os_getcwd(cwd, cap))
			break;
		if (errno != ERANGE || cap > ((size_t)1 << 20)) {
			free(cwd);
			return NULL;
		}
		cap *= 2;
	}
	size_t a = strlen(cwd), b = strlen(p);
	char *joined = malloc(a + b + 2);
	char *out = NULL;
	if (joined) {
		memcpy(joined, cwd, a);
		joined[a] = '/';
		memcpy(joined + a + 1, p, b + 1);
		out = normalize(joined);
	}
	free(joined);
	free(cwd);
	return out;
}

char *wl_path_relative(const char *from, const char *to)
{
	/* Longest common run of whole components. */
	size_t common = 0, i = 0;
	for (;;) {
		char a = from[i], b = to[i];
		if ((a == '/' || a == 0) && (b == '/' || b == 0))
			common = i;
		if (a == 0 || b == 0 || a != b)
			break;
		i++;
	}
	bool from_root = wl_path_is_root(from);
	if (from_root)
		common = 0;
	size_t ups = 0;
	for (const char *p = from + common; *p && !from_root; p++)
		ups += *p == '/';
	const char *rest = to + common;
	while (*rest == '/')
		rest++;
	size_t rl = strlen(rest);
	char *out = malloc(ups * 3 + rl + 2);
	if (!out)
		return NULL;
	size_t at = 0;
	for (size_t k = 0; k < ups; k++) {
		memcpy(out + at, "../", 3);
		at += 3;
	}
	memcpy(out + at, rest, rl);
	at += rl;
	if (at > 0 && out[at - 1] == '/' && rl == 0)
		at--;
	if (at == 0)
		out[at++] = '.';
	out[at] = 0;
	return out;
}

/* --------------------------------------------------------------- entries */

static int cmp_entry(const void *x, const void *y)
{
	const entry *a = x, *b = y;
	int c = strcmp(a->key, b->key);
	return c ? c : strcmp(a->rule, b->rule);
}

static int cmp_entry_ptr(const void *x, const void *y)
{
	const entry *a = *(const entry *const *)x, *b = *(const entry *const *)y;
	int c = cmp_entry(a, b);
	return c ? c : (a < b ? -1 : a > b);
}

static int push(wl_baseline *b, const char *key, const char *rule, uint64_t n)
{
	if (!wl_grow((void **)&b->items, &b->cap, b->count + 1, sizeof *b->items))
		return -1;
	entry *e = &b->items[b->count];
	memset(e, 0, sizeof *e);
	e->key = strdup(key);
	e->rule = strdup(rule);
	if (!e->key || !e->rule) {
		free(e->key);
		free(e->rule);
		return -1;
	}
	e->recorded = n;
	b->count++;
	return 0;
}

/* push() of the key written in the escaped form (core/escape.h): its raw
 * bytes are the key. */
static int push_escaped(wl_baseline *b, const char *key, const char *rule, uint64_t n)
{
	char *raw = malloc(strlen(key) + 1);
	if (!raw)
		return -1;
	wl_unescape(raw, key);
	int rc = push(b, raw, rule, n);
	free(raw);
	return rc;
}

/* Index of the first loaded entry of key, or b->loaded when none. */
static size_t first_of(const wl_baseline *b, const char *key)
{
	size_t lo = 0, hi = b->loaded;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(b->items[mid].key, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < b->loaded && strcmp(b->items[lo].key, key) == 0 ? lo : b->loaded;
}

uint64_t wl_baseline_recorded(const wl_baseline *b, const char *key, const char *rule)
{
	for (size_t i = first_of(b, key); i < b->loaded && strcmp(b->items[i].key, key) == 0; i++)
		if (strcmp(b->items[i].rule, rule) == 0)
			return b->items[i].recorded;
	return 0;
}

size_t wl_baseline_entry_count(const wl_baseline *b)
{
	return b->count;
}

const char *wl_baseline_path(const wl_baseline *b)
{
	return b->path;
}

/* ------------------------------------------------------------------ load */

static void set_err(char *err, size_t errcap, const char *fmt, ...) __attribute__((format(WL_PRINTF_FMT, 3, 4)));

static void set_err(char *err, size_t errcap, const char *fmt, ...)
{
	if (!errcap)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errcap, fmt, ap);
	va_end(ap);
}

/* Reads the whole file; 1 when it does not exist, -1 on error.  The limit
 * passed keeps the reader's historical cut-off: a file is refused once a
 * full buffer of 2 x WL_BASELINE_MAX_BYTES would have to grow. */
static int slurp(const char *path, char **out, size_t *len, char *err, size_t errcap)
{
	uint8_t *buf;
	int rc = wl_read_file(path, 2 * WL_BASELINE_MAX_BYTES, &buf, len);
	if (rc == WL_READ_OK) {
		*out = (char *)buf;
		return 0;
	}
	if (rc == WL_READ_OPEN && errno == ENOENT)
		return 1;
	set_err(err, errcap, "%s: %s", wl_esc(path),
		rc == WL_READ_BIG     ? "over the 64 MiB limit of a baseline file"
		: rc == WL_READ_NOMEM ? "out of memory"
				      : strerror(errno));
	return -1;
}

/* Checks the shape and fills b; -1 with a message on error. */
static int from_json(wl_baseline *b, json_t *root, char *err, size_t errcap)
{
	const char *path = b->path;
	json_t *ver = json_object_get(root, "w3dlint-baseline");
	if (!json_is_object(root) || !json_is_integer(ver)) {
		set_err(err, errcap, "%s: %s", wl_esc(path), "not a w3dlint baseline (no \"w3dlint-baseline\": 1 at the top)");
		return -1;
	}
	if (json_integer_value(ver) != WL_BASELINE_VERSION) {
		set_err(err, errcap, "%s: %s", wl_esc(path), "baseline version is not 1 (written by a newer w3dlint?)");
		return -1;
	}
	json_t *files = json_object_get(root, "files");
	if (!json_is_object(files)) {
		set_err(err, errcap, "%s: %s", wl_esc(path), "\"files\" must be an object: path -> { rule id -> count }");
		return -1;
	}
	const char *key;
	json_t *rules;
	json_object_foreach(files, key, rules) {
		if (!json_is_object(rules) || key[0] == 0) {
			set_err(err, errcap, "%s: files.\"%s\" must be an object: rule id -> count", wl_esc(path), wl_esc(key));
			return -1;
		}
		const char *rule;
		json_t *n;
		json_object_foreach(rules, rule, n) {
			if (!json_is_integer(n) || json_integer_value(n) < 0 || rule[0] == 0) {
				set_err(err, errcap, "%s: the count of files.\"%s\" must be integers >= 0", wl_esc(path), wl_esc(key));
				return -1;
			}
			if (json_integer_value(n) > 0 && push_escaped(b, key, rule, (uint64_t)json_integer_value(n)) != 0) {
				set_err(err, errcap, "%s: %s", wl_esc(path), "out of memory");
				return -1;
			}
		}
	}
	return 0;
}

wl_baseline *wl_baseline_load(const char *path, bool missing_ok, char *err, size_t errcap)
{
	wl_baseline *b = calloc(1, sizeof *b);
	if (!b) {
		set_err(err, errcap, "%s: %s", wl_esc(path), "out of memory");
		return NULL;
	}
	b->path = strdup(path);
	char *abs = wl_path_absolute(path);
	if (abs) {
		char *slash = strrchr(abs, '/');
		if (slash == abs)
			slash[1] = 0;
		else
			*slash = 0;
	}
	b->dir = abs;
	if (!b->path || !b->dir) {
		set_err(err, errcap, "%s: %s", wl_esc(path), "out of memory (or the current directory is unknown)");
		wl_baseline_free(b);
		return NULL;
	}
	char *text = NULL;
	size_t len = 0;
	int rc = slurp(path, &text, &len, err, errcap);
	if (rc == 1 && missing_ok)
		return b;
	if (rc == 1)
		set_err(err, errcap, "%s: %s", wl_esc(path), strerror(ENOENT));
	if (rc != 0) {
		wl_baseline_free(b);
		return NULL;
	}
	json_error_t je;
	json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	free(text);
	if (!root) {
		if (errcap)
			snprintf(err, errcap, "%s:%d:%d: %s", wl_esc(path), je.line, je.column, je.text);
		wl_baseline_free(b);
		return NULL;
	}
	rc = from_json(b, root, err, errcap);
	json_decref(root);
	if (rc != 0) {
		wl_baseline_free(b);
		return NULL;
	}
	if (b->count > 1)
		qsort(b->items, b->count, sizeof *b->items, cmp_entry);
	b->loaded = b->count;
	return b;
}

void wl_baseline_free(wl_baseline *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < b->count; i++) {
		free(b->items[i].key);
		free(b->items[i].rule);
	}
	free(b->items);
	free(b->path);
	free(b->dir);
	free(b);
}

char *wl_baseline_key(const wl_baseline *b, const char *file_path)
{
	char *abs = wl_path_absolute(file_path);
	if (!abs)
		return NULL;
	char *rel = wl_path_relative(b->dir, abs);
	free(abs);
	return rel;
}

/* ------------------------------------------------------------- matching */

/* Per-rule totals of one file. */
typedef struct tally {
	const char *rule;
	uint64_t kept, dropped;
	uint64_t budget;     /* recorded findings not yet matched */
} tally;

typedef struct tallies {
	tally *t;
	size_t n, cap;
} tallies;

static tally *tally_of(tallies *ts, const char *rule)
{
	for (size_t i = 0; i < ts->n; i++)
		if (strcmp(ts->t[i].rule, rule) == 0)
			return &ts->t[i];
	if (!wl_grow((void **)&ts->t, &ts->cap, ts->n + 1, sizeof *ts->t))
		return NULL;
	tally *x = &ts->t[ts->n++];
	memset(x, 0, sizeof *x);
	x->rule = rule;
	return x;
}

static int count_file(tallies *ts, const wl_finding *items, size_t count, const wl_report_dropped *dropped,
		      size_t dropped_count)
{
	for (size_t i = 0; i < count; i++) {
		tally *x = tally_of(ts, items[i].rule);
		if (!x)
			return -1;
		x->kept++;
	}
	for (size_t i = 0; i < dropped_count; i++) {
		tally *x = tally_of(ts, dropped[i].rule);
		if (!x)
			return -1;
		x->dropped += dropped[i].count;
	}
	return 0;
}

int64_t wl_baseline_match(wl_baseline *b, const char *key, const wl_finding *items, size_t count, bool *keep,
			  wl_report_dropped *dropped, size_t *dropped_count)
{
	tallies ts = { 0 };
	if (count_file(&ts, items, count, dropped, *dropped_count) != 0) {
		free(ts.t);
		return -1;
	}
	for (size_t i = 0; i < ts.n; i++)
		ts.t[i].budget = wl_baseline_recorded(b, key, ts.t[i].rule);
	int64_t matched = 0;
	/* The first ones by offset are the baselined ones, the last k - c new. */
	for (size_t i = 0; i < count; i++) {
		tally *x = tally_of(&ts, items[i].rule);
		keep[i] = true;
		if (x && x->budget > 0) {
			x->budget--;
			keep[i] = false;
			matched++;
		}
	}
	size_t w = 0;
	for (size_t i = 0; i < *dropped_count; i++) {
		tally *x = tally_of(&ts, dropped[i].rule);
		uint64_t covered = x ? (x->budget < dropped[i].count ? x->budget : dropped[i].count) : 0;
		if (x)
			x->budget -= covered;
		matched += (int64_t)covered;
		dropped[i].count -= covered;
		if (dropped[i].count > 0)
			dropped[w++] = dropped[i];
	}
	*dropped_count = w;
	for (size_t i = first_of(b, key); i < b->loaded && strcmp(b->items[i].key, key) == 0; i++) {
		entry *e = &b->items[i];
		e->seen = true;
		e->found = 0;
		for (size_t k = 0; k < ts.n; k++)
			if (strcmp(ts.t[k].rule, e->rule) == 0)
				e->found = ts.t[k].kept + ts.t[k].dropped;
	}
	free(ts.t);
	return matched;
}

int64_t wl_baseline_record(wl_baseline *b, const char *key, const wl_finding *items, size_t count,
			   const wl_report_dropped *dropped, size_t dropped_count)
{
	tallies ts = { 0 };
	if (count_file(&ts, items, count, dropped, dropped_count) != 0) {
		free(ts.t);
		return -1;
	}
	for (size_t i = first_of(b, key); i < b->loaded && strcmp(b->items[i].key, key) == 0; i++) {
		b->items[i].removed = true;
		b->items[i].seen = true;
	}
	int64_t total = 0;
	for (size_t i = 0; i < ts.n; i++) {
		uint64_t n = ts.t[i].kept + ts.t[i].dropped;
		if (push(b, key, ts.t[i].rule, n) != 0) {
			free(ts.t);
			return -1;
		}
		b->items[b->count - 1].seen = true;
		total += (int64_t)n;
	}
	free(ts.t);
	return total;
}

/* ----------------------------------------------------------------- stale */

/* True when the file of key (relative to the baseline's folder) is gone. */
static bool file_missing(const wl_baseline *b, const char *key)
{
	size_t a = strlen(b->dir), k = strlen(key);
	char *p = malloc(a + k + 2);
	if (!p)
		return false;
	memcpy(p, b->dir, a);
	p[a] = '/';
	memcpy(p + a + 1, key, k + 1);
	struct stat st;
	bool gone = wl_os_stat(p, &st) != 0 && (errno == ENOENT || errno == ENOTDIR);
	free(p);
	return gone;
}

size_t wl_baseline_stale(const wl_baseline *b, wl_report_stale **out)
{
	*out = NULL;
	size_t n = 0;
	wl_report_stale *list = NULL;
	if (b->loaded) {
		list = malloc(b->loaded * sizeof *list);
		if (!list)
			return (size_t)-1;
	}
	bool gone = false;
	for (size_t i = 0; i < b->loaded; i++) {
		const entry *e = &b->items[i];
		if (i == 0 || strcmp(b->items[i - 1].key, e->key) != 0)
			gone = !e->seen && file_missing(b, e->key);
		if (e->seen ? e->found < e->recorded : gone) {
			wl_report_stale *s = &list[n++];
			s->path = e->key;
			s->rule = e->rule;
			s->recorded = e->recorded;
			s->found = e->seen ? e->found : 0;
			s->missing = !e->seen;
		}
	}
	*out = list;
	return n;
}

/* ------------------------------------------------------------------ save */

int wl_baseline_save(wl_baseline *b, size_t *skipped, char *err, size_t errcap)
{
	if (skipped)
		*skipped = 0;
	/* What is written: recorded entries, and loaded entries of files not
	 * linted in this run that still exist. */
	entry **keep = malloc((b->count ? b->count : 1) * sizeof *keep);
	if (!keep) {
		set_err(err, errcap, "%s: %s", wl_esc(b->path), "out of memory");
		return -1;
	}
	size_t n = 0;
	bool gone = false;
	for (size_t i = 0; i < b->count; i++) {
		entry *e = &b->items[i];
		if (i < b->loaded) {
			if (e->removed || e->seen)
				continue;
			if (i == 0 || strcmp(b->items[i - 1].key, e->key) != 0)
				gone = file_missing(b, e->key);
			if (gone)
				continue;
		}
		if (e->recorded > 0)
			keep[n++] = e;
	}
	/* Sort by key and rule; a (key, rule) recorded twice (the same file
	 * linted twice) keeps the later count: ties keep array order. */
	qsort(keep, n, sizeof *keep, cmp_entry_ptr);
	json_t *root = json_object();
	json_t *files = json_object();
	int bad = !root || !files;
	if (!bad) {
		bad |= json_object_set_new(root, "w3dlint-baseline", json_integer(WL_BASELINE_VERSION));
		bad |= json_object_set(root, "files", files);
	}
	for (size_t i = 0; !bad && i < n; i++) {
		if (i + 1 < n && cmp_entry(keep[i], keep[i + 1]) == 0)
			continue;
		/* the key in the escaped form: UTF-8 whatever the path's bytes */
		char *key = wl_escape_dup(keep[i]->key);
		json_t *rules = key ? json_object_get(files, key) : NULL;
		if (key && !rules) {
			rules = json_object();
			if (rules && json_object_set_new(files, key, rules) != 0)
				rules = NULL;
		}
		free(key);
		if (!rules) { /* out of memory */
			if (skipped)
				(*skipped)++;
			continue;
		}
		json_int_t v = keep[i]->recorded > (uint64_t)INT64_MAX ? INT64_MAX : (json_int_t)keep[i]->recorded;
		if (json_object_set_new(rules, keep[i]->rule, json_integer(v)) != 0 && skipped)
			(*skipped)++;
	}
	free(keep);
	json_decref(files);
	if (bad) {
		json_decref(root);
		set_err(err, errcap, "%s: %s", wl_esc(b->path), "out of memory");
		return -1;
	}
	/* core/safe_write.h: written whole or not at all, the file's owner,
	 * mode and attributes kept */
	wl_sw w;
	FILE *fp = NULL;
	int rc = wl_sw_lock(&w, b->path, 0);
	if (rc == WL_SW_OK)
		rc = wl_sw_open(&w, 0666);
	if (rc == WL_SW_OK && !(fp = wl_sw_stream(&w)))
		rc = WL_SW_ERR;
	if (rc == WL_SW_OK) {
		int wr = json_dumpf(root, fp, JSON_INDENT(2));
		if (wr == 0)
			fputc('\n', fp);
		if (wr != 0 && !ferror(fp))
			errno = EIO;
		rc = wr == 0 ? wl_sw_commit(&w) : WL_SW_ERR;
	}
	if (rc != WL_SW_OK) {
		int e = errno;
		char msg[1200];
		wl_sw_message(msg, sizeof msg, "w3dlint", b->path, &w, rc, e, NULL, NULL);
		/* err gets "PATH: REASON" (the caller names the tool) */
		const char *tail = strstr(msg, ": ");
		set_err(err, errcap, "%s", tail ? tail + 2 : msg);
		wl_sw_abort(&w);
	}
	json_decref(root);
	return rc == WL_SW_OK ? 0 : -1;
}
