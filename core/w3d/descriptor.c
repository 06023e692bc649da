/* descriptor.c - the W3D format descriptor (format.h): extensions, content
 * detection, the chunk layout of w3d_format.c, the model builder and the
 * game dialects of game.h. */
#include "w3d_format.h"

#include <string.h>
#include <strings.h>

#include "game.h"
#include "model.h"

int w3d_detect(const uint8_t *bytes, uint64_t size)
{
	if (size < 8)
		return WL_DETECT_NO;
	uint32_t id, len;
	bool flag;
	w3d_read_header(bytes, &id, &len, &flag);
	if (!w3d_lookup(W3D_CTX_ROOT, id))
		return WL_DETECT_NO;
	return (uint64_t)len <= size - 8 ? WL_DETECT_WEAK + 25 : WL_DETECT_WEAK;
}

static void *build_model(wl_doc *doc)
{
	return w3d_model_build(doc);
}

static bool dialect_parse(const char *name, int *out)
{
	w3d_game g;
	if (!w3d_game_parse(name, &g) || g == W3D_GAME_AUTO)
		return false;
	*out = (int)g;
	return true;
}

static void dialect_set(void *model, int dialect)
{
	w3d_model_set_game(model, (w3d_game)dialect);
}

static const char *const extensions[] = { "w3d", "wlt", "wht", "wha", "wtm", NULL };

const wl_format w3d_format = {
	.name = "w3d",
	.title = "Westwood/EA W3D",
	.extensions = extensions,
	.detect = w3d_detect,
	.build_model = build_model,
	.dialect_parse = dialect_parse,
	.dialect_set = dialect_set,
	.dialect_names = "renegade, generals (zh), bfme, w3dhub (tt)",
	.writable = true,
	.header_size = 8,
	.has_container_bit = true,
	.eof_ends_containers = true,
	.read_header = w3d_read_header,
	.lookup = w3d_lookup,
	.id_name = w3d_id_name,
	.schema = w3d_schema,
	.counted_size = w3d_counted_size,
};

int w3d_is_w3d_path(const char *path)
{
	const char *dot = strrchr(path, '.');
	if (!dot)
		return 0;
	for (const char *const *e = extensions; *e; e++)
		if (strcasecmp(dot + 1, *e) == 0)
			return 1;
	return 0;
}
