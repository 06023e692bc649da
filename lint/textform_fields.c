/*
 * textform_fields.c - the struct field tables of the W3D text form (one
 * entry per chunk type with a known payload layout), and how one field value
 * is printed.  Shared by the text form writer, the assembler and w3ddump.
 *
 * Layouts and field names: seeds/000_2d9a53fdbe3a6a75.txt (W3D spec struct
 * definitions) and notes/w3d_reference.md §2.1-§2.13; sizes checked against
 * §2.14 by tests/check_textform.c (the table sizes must equal the schema's
 * fixed record and element sizes).
 */
#include "textform.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../core/cursor.h"

#define F(n, t, c) { n, WL_TF_##t, c }
#define N(a) (sizeof(a) / sizeof((a)[0]))

/* W3dVectorStruct arrays (VERTICES, VERTEX_NORMALS, TANGENTS ...). */
static const wl_tf_field vec3_elem[] = { F("XYZ", F32, 3) };
static const wl_tf_field u32_elem[] = { F("Index", U32, 1) };
static const wl_tf_field rgba_elem[] = { F("RGBA", U8, 4) };
static const wl_tf_field uv_elem[] = { F("UV", F32, 2) };

/* W3dMeshHeader3Struct, 116 bytes (§2.1). */
static const wl_tf_field mesh_header3[] = {
	F("Version", X32, 1), F("Attributes", X32, 1), F("MeshName", NAME, 16),
	F("ContainerName", NAME, 16), F("NumTris", U32, 1), F("NumVertices", U32, 1),
	F("NumMaterials", U32, 1), F("NumDamageStages", U32, 1), F("SortLevel", I32, 1),
	F("PrelitVersion", X32, 1), F("FutureCounts", U32, 1), F("VertexChannels", X32, 1),
	F("FaceChannels", X32, 1), F("Min", F32, 3), F("Max", F32, 3), F("SphCenter", F32, 3),
	F("SphRadius", F32, 1),
};
/* W3dTriStruct, 32 bytes. */
static const wl_tf_field triangle[] = {
	F("Vindex", U32, 3), F("Attributes", U32, 1), F("Normal", F32, 3), F("Dist", F32, 1),
};
/* W3dVertInfStruct, 8 bytes: REN/ZH read BoneIdx and treat the rest as
 * padding; BFME and the Blender plugin store a second bone and weights (§5.2). */
static const wl_tf_field vert_inf[] = {
	F("BoneIdx", U16, 1), F("XtraIdx", U16, 1), F("BoneInf", U16, 1), F("XtraInf", U16, 1),
};
/* W3dMaterialInfoStruct, 16 bytes. */
static const wl_tf_field material_info[] = {
	F("PassCount", U32, 1), F("VertexMaterialCount", U32, 1), F("ShaderCount", U32, 1),
	F("TextureCount", U32, 1),
};
/* W3dShaderStruct, 16 bytes. */
static const wl_tf_field shader[] = {
	F("DepthCompare", U8, 1), F("DepthMask", U8, 1), F("ColorMask", U8, 1),
	F("DestBlend", U8, 1), F("FogFunc", U8, 1), F("PriGradient", U8, 1),
	F("SecGradient", U8, 1), F("SrcBlend", U8, 1), F("Texturing", U8, 1),
	F("DetailColorFunc", U8, 1), F("DetailAlphaFunc", U8, 1), F("ShaderPreset", U8, 1),
	F("AlphaTest", U8, 1), F("PostDetailColorFunc", U8, 1), F("PostDetailAlphaFunc", U8, 1),
	F("Pad", U8, 1),
};
/* W3dVertexMaterialStruct, 32 bytes (W3dRGBStruct = R, G, B, pad). */
static const wl_tf_field vertex_material_info[] = {
	F("Attributes", X32, 1), F("Ambient", U8, 4), F("Diffuse", U8, 4), F("Specular", U8, 4),
	F("Emissive", U8, 4), F("Shininess", F32, 1), F("Opacity", F32, 1),
	F("Translucency", F32, 1),
};
/* W3dTextureInfoStruct, 12 bytes. */
static const wl_tf_field texture_info[] = {
	F("Attributes", X16, 1), F("AnimType", U16, 1), F("FrameCount", U32, 1),
	F("FrameRate", F32, 1),
};
static const wl_tf_field per_face_texcoord_ids[] = { F("Index", U32, 3) };
/* W3dMeshAABTreeHeader, 32 bytes (§2.2). */
static const wl_tf_field aabtree_header[] = {
	F("NodeCount", U32, 1), F("PolyCount", U32, 1), F("Padding", U32, 6),
};
/* W3dMeshAABTreeNode, 32 bytes: FrontOrPoly0 bit 31 marks a leaf. */
static const wl_tf_field aabtree_node[] = {
	F("Min", F32, 3), F("Max", F32, 3), F("FrontOrPoly0", X32, 1), F("BackOrPolyCount", U32, 1),
};
/* W3dHierarchyStruct, 36 bytes (§2.3). */
static const wl_tf_field hierarchy_header[] = {
	F("Version", X32, 1), F("Name", NAME, 16), F("NumPivots", U32, 1), F("Center", F32, 3),
};
/* W3dPivotStruct, 60 bytes: ParentIdx -1 (0xFFFFFFFF) is the root;
 * Rotation is X, Y, Z, W. */
static const wl_tf_field pivot[] = {
	F("Name", NAME, 16), F("ParentIdx", I32, 1), F("Translation", F32, 3),
	F("EulerAngles", F32, 3), F("Rotation", F32, 4),
};
/* W3dPivotFixupStruct, 48 bytes: float TM[4][3], row by row. */
static const wl_tf_field pivot_fixup[] = { F("TM", F32, 12) };
/* W3dAnimHeaderStruct, 44 bytes (§2.4). */
static const wl_tf_field animation_header[] = {
	F("Version", X32, 1), F("Name", NAME, 16), F("HierarchyName", NAME, 16),
	F("NumFrames", U32, 1), F("FrameRate", U32, 1),
};
/* W3dAnimChannelStruct: 12-byte header, then float Data[] ((LastFrame -
 * FirstFrame + 1) * VectorLen values). */
static const wl_tf_field animation_channel[] = {
	F("FirstFrame", U16, 1), F("LastFrame", U16, 1), F("VectorLen", U16, 1), F("Flags", U16, 1),
	F("Pivot", U16, 1), F("Pad", U16, 1),
};
static const wl_tf_field f32_rest = F("Data", F32, 0);
/* W3dBitChannelStruct: 9-byte header, then the bits, LSB first. */
static const wl_tf_field bit_channel[] = {
	F("FirstFrame", U16, 1), F("LastFrame", U16, 1), F("Flags", U16, 1), F("Pivot", U16, 1),
	F("DefaultVal", U8, 1),
};
static const wl_tf_field hex_rest = F("Data", HEX, 0);
/* W3dCompressedAnimHeaderStruct, 44 bytes (§2.5). */
static const wl_tf_field compressed_animation_header[] = {
	F("Version", X32, 1), F("Name", NAME, 16), F("HierarchyName", NAME, 16),
	F("NumFrames", U32, 1), F("FrameRate", U16, 1), F("Flavor", U16, 1),
};
/* W3dTimeCodedAnimChannelStruct / W3dAdaptiveDeltaAnimChannelStruct share
 * these 8 bytes (NumTimeCodes is NumFrames for adaptive delta); the packets
 * that follow depend on the header's Flavor and are kept as hex. */
static const wl_tf_field compressed_animation_channel[] = {
	F("NumTimeCodes", U32, 1), F("Pivot", U16, 1), F("VectorLen", U8, 1), F("Flags", U8, 1),
};
/* W3dTimeCodedBitChannelStruct: 8-byte header, then NumTimeCodes uint32
 * (bits 0-30 frame, bit 31 state). */
static const wl_tf_field compressed_bit_channel[] = {
	F("NumTimeCodes", U32, 1), F("Pivot", U16, 1), F("Flags", U8, 1), F("DefaultVal", U8, 1),
};
static const wl_tf_field x32_rest = F("Data", X32, 0);
/* BFME II motion channel 0x284 header, 8 bytes (§2.5). */
static const wl_tf_field motion_channel[] = {
	F("Zero", U8, 1), F("DeltaType", U8, 1), F("VectorLen", U8, 1), F("Flags", U8, 1),
	F("NumTimeCodes", U16, 1), F("Pivot", U16, 1),
};
/* W3dMorphAnimHeaderStruct, 48 bytes (§2.6). */
static const wl_tf_field morphanim_header[] = {
	F("Version", X32, 1), F("Name", NAME, 16), F("HierarchyName", NAME, 16),
	F("FrameCount", U32, 1), F("FrameRate", F32, 1), F("ChannelCount", U32, 1),
};
static const wl_tf_field morphanim_key[] = { F("MorphFrame", U32, 1), F("PoseFrame", U32, 1) };
/* W3dHLodHeaderStruct, 40 bytes (§2.7). */
static const wl_tf_field hlod_header[] = {
	F("Version", X32, 1), F("LodCount", U32, 1), F("Name", NAME, 16),
	F("HierarchyName", NAME, 16),
};
/* W3dHLodArrayHeaderStruct, 8 bytes. */
static const wl_tf_field hlod_array_header[] = { F("ModelCount", U32, 1), F("MaxScreenSize", F32, 1) };
/* W3dHLodSubObjectStruct, 36 bytes. */
static const wl_tf_field hlod_sub_object[] = { F("BoneIndex", U32, 1), F("Name", NAME, 32) };
/* W3dHModelHeaderStruct, 40 bytes with tail padding (§1.6, §2.8). */
static const wl_tf_field hmodel_header[] = {
	F("Version", X32, 1), F("Name", NAME, 16), F("HierarchyName", NAME, 16),
	F("NumConnections", U16, 1), F("Pad", HEX, 2),
};
/* W3dHModelNodeStruct, 18 bytes. */
static const wl_tf_field hmodel_node[] = { F("RenderObjName", NAME, 16), F("PivotIdx", U16, 1) };
/* W3dBoxStruct, 68 bytes (§2.9). */
static const wl_tf_field box[] = {
	F("Version", X32, 1), F("Attributes", X32, 1), F("Name", NAME, 32), F("Color", U8, 4),
	F("Center", F32, 3), F("Extent", F32, 3),
};
/* W3dNullObjectStruct, 48 bytes. */
static const wl_tf_field null_object[] = {
	F("Version", X32, 1), F("Attributes", X32, 1), F("Pad", U32, 2), F("Name", NAME, 32),
};
/* W3dEmitterHeaderStruct / W3dAggregateHeaderStruct, 20 bytes. */
static const wl_tf_field version_name16[] = { F("Version", X32, 1), F("Name", NAME, 16) };
/* W3dAggregateInfoStruct, 36 bytes; the sub-objects that follow are kept
 * as tail hex. */
static const wl_tf_field aggregate_info[] = { F("BaseModelName", NAME, 32), F("SubobjectCount", U32, 1) };
/* W3dLightStruct, 24 bytes (§2.13). */
static const wl_tf_field light_info[] = {
	F("Attributes", X32, 1), F("Unused", U32, 1), F("Ambient", U8, 4), F("Diffuse", U8, 4),
	F("Specular", U8, 4), F("Intensity", F32, 1),
};
/* W3dLightAttenuationStruct, 8 bytes. */
static const wl_tf_field light_attenuation[] = { F("Start", F32, 1), F("End", F32, 1) };
/* W3dSoundRObjHeaderStruct, 56 bytes. */
static const wl_tf_field soundrobj_header[] = {
	F("Version", X32, 1), F("Name", NAME, 16), F("Flags", X32, 1), F("Padding", U32, 8),
};

#define REC(name, f) { name, WL_TF_RECORD, f, N(f), NULL }
#define RECR(name, f, r) { name, WL_TF_RECORD, f, N(f), &r }
#define ARR(name, f) { name, WL_TF_ARRAY, f, N(f), NULL }

static const wl_tf_struct tables[] = {
	REC("MESH_HEADER3", mesh_header3),
	ARR("VERTICES", vec3_elem),
	ARR("VERTEX_NORMALS", vec3_elem),
	ARR("SURRENDER_NORMALS", vec3_elem),
	ARR("TANGENTS", vec3_elem),
	ARR("BITANGENTS", vec3_elem),
	ARR("SECONDARY_VERTICES", vec3_elem),
	ARR("SECONDARY_VERTEX_NORMALS", vec3_elem),
	ARR("POINTS", vec3_elem),
	ARR("TRIANGLES", triangle),
	ARR("VERTEX_INFLUENCES", vert_inf),
	ARR("VERTEX_SHADE_INDICES", u32_elem),
	REC("MATERIAL_INFO", material_info),
	ARR("SHADERS", shader),
	REC("VERTEX_MATERIAL_INFO", vertex_material_info),
	REC("TEXTURE_INFO", texture_info),
	ARR("VERTEX_MATERIAL_IDS", u32_elem),
	ARR("SHADER_IDS", u32_elem),
	ARR("TEXTURE_IDS", u32_elem),
	ARR("SHADER_MATERIAL_ID", u32_elem),
	ARR("DCG", rgba_elem),
	ARR("DIG", rgba_elem),
	ARR("SCG", rgba_elem),
	ARR("STAGE_TEXCOORDS", uv_elem),
	ARR("PER_FACE_TEXCOORD_IDS", per_face_texcoord_ids),
	REC("AABTREE_HEADER", aabtree_header),
	ARR("AABTREE_POLYINDICES", u32_elem),
	ARR("AABTREE_NODES", aabtree_node),
	REC("HIERARCHY_HEADER", hierarchy_header),
	ARR("PIVOTS", pivot),
	ARR("PIVOT_FIXUPS", pivot_fixup),
	REC("ANIMATION_HEADER", animation_header),
	RECR("ANIMATION_CHANNEL", animation_channel, f32_rest),
	RECR("BIT_CHANNEL", bit_channel, hex_rest),
	REC("COMPRESSED_ANIMATION_HEADER", compressed_animation_header),
	RECR("COMPRESSED_ANIMATION_CHANNEL", compressed_animation_channel, hex_rest),
	RECR("COMPRESSED_BIT_CHANNEL", compressed_bit_channel, x32_rest),
	RECR("COMPRESSED_ANIMATION_MOTION_CHANNEL", motion_channel, hex_rest),
	REC("MORPHANIM_HEADER", morphanim_header),
	ARR("MORPHANIM_KEYDATA", morphanim_key),
	ARR("MORPHANIM_PIVOTCHANNELDATA", u32_elem),
	REC("HLOD_HEADER", hlod_header),
	REC("HLOD_SUB_OBJECT_ARRAY_HEADER", hlod_array_header),
	REC("HLOD_SUB_OBJECT", hlod_sub_object),
	REC("HMODEL_HEADER", hmodel_header),
	REC("NODE", hmodel_node),
	REC("COLLISION_NODE", hmodel_node),
	REC("SKIN_NODE", hmodel_node),
	REC("BOX", box),
	REC("NULL_OBJECT", null_object),
	REC("EMITTER_HEADER", version_name16),
	REC("AGGREGATE_HEADER", version_name16),
	REC("AGGREGATE_INFO", aggregate_info),
	REC("LIGHT_INFO", light_info),
	REC("NEAR_ATTENUATION", light_attenuation),
	REC("FAR_ATTENUATION", light_attenuation),
	REC("SOUNDROBJ_HEADER", soundrobj_header),
};

const wl_tf_struct *wl_tf_tables(size_t *out_count)
{
	*out_count = N(tables);
	return tables;
}

const wl_tf_struct *wl_tf_lookup(const char *chunk_short_name)
{
	if (!chunk_short_name)
		return NULL;
	for (size_t i = 0; i < N(tables); i++)
		if (strcmp(tables[i].chunk, chunk_short_name) == 0)
			return &tables[i];
	return NULL;
}

size_t wl_tf_type_size(wl_tf_type t)
{
	switch (t) {
	case WL_TF_U16:
	case WL_TF_X16:
		return 2;
	case WL_TF_U32:
	case WL_TF_I32:
	case WL_TF_X32:
	case WL_TF_F32:
		return 4;
	default:
		return 1;
	}
}

size_t wl_tf_field_size(const wl_tf_field *f)
{
	size_t n = f->count ? f->count : 1;
	if (f->type == WL_TF_NAME || f->type == WL_TF_HEX)
		return n;
	return n * wl_tf_type_size((wl_tf_type)f->type);
}

size_t wl_tf_struct_size(const wl_tf_struct *s)
{
	size_t n = 0;
	for (size_t i = 0; i < s->field_count; i++)
		n += wl_tf_field_size(&s->fields[i]);
	return n;
}

/* ------------------------------------------------------------ printing */

void wl_tf_put_f32(FILE *out, uint32_t bits)
{
	float f;
	memcpy(&f, &bits, sizeof f);
	if (isfinite(f)) {
		char buf[48];
		snprintf(buf, sizeof buf, "%.9g", (double)f);
		/* A shorter form that reads back bit-exact, when there is one
		 * (%g drops trailing zeros, so 6 digits also covers shorter). */
		for (int prec = 6; prec < 9; prec++) {
			char t[48];
			snprintf(t, sizeof t, "%.*g", prec, (double)f);
			float g = strtof(t, NULL);
			uint32_t gb;
			memcpy(&gb, &g, sizeof gb);
			if (gb == bits) {
				memcpy(buf, t, sizeof buf);
				break;
			}
		}
		float g = strtof(buf, NULL);
		uint32_t gb;
		memcpy(&gb, &g, sizeof gb);
		/* "inf"/"nan" never appear here; "e+" forms are YAML numbers. */
		if (gb == bits) {
			fputs(buf, out);
			return;
		}
	}
	fprintf(out, "!f32bits 0x%08X", (unsigned)bits);
}

void wl_tf_put_hex(FILE *out, const uint8_t *p, size_t n, int indent, const char *comment)
{
	if (n <= 16) {
		fputc('"', out);
		for (size_t i = 0; i < n; i++)
			fprintf(out, i ? " %02x" : "%02x", p[i]);
		fputc('"', out);
		if (comment)
			fprintf(out, "  # %s", comment);
		return;
	}
	fputs("|", out);
	if (comment)
		fprintf(out, "  # %s", comment);
	for (size_t i = 0; i < n; i++) {
		if (i % 16 == 0)
			fprintf(out, "\n%*s%02x", indent, "", p[i]);
		else
			fprintf(out, " %02x", p[i]);
	}
}

/* Is name[0..n) printable ASCII up to a NUL, then NUL bytes only? */
static bool clean_name(const uint8_t *p, size_t n)
{
	size_t i = 0;
	while (i < n && p[i])
		if (p[i] < 0x20 || p[i] > 0x7E)
			return false;
		else
			i++;
	for (; i < n; i++)
		if (p[i])
			return false;
	return true;
}

/* Writes a YAML double-quoted string of n bytes (printable ASCII, tab, CR,
 * LF; anything else as \xNN, which the text form never needs to read back). */
static void put_quoted(FILE *out, const uint8_t *p, size_t n)
{
	fputc('"', out);
	for (size_t i = 0; i < n; i++) {
		uint8_t c = p[i];
		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", out);
		else if (c == '\r')
			fputs("\\r", out);
		else if (c == '\t')
			fputs("\\t", out);
		else if (c >= 0x20 && c < 0x7F)
			fputc(c, out);
		else
			fprintf(out, "\\x%02x", c);
	}
	fputc('"', out);
}

/* One element of type t at p. */
static void put_elem(FILE *out, wl_tf_type t, const uint8_t *p)
{
	switch (t) {
	case WL_TF_U8:
		fprintf(out, "%u", (unsigned)p[0]);
		break;
	case WL_TF_U16:
		fprintf(out, "%u", (unsigned)wl_le16(p));
		break;
	case WL_TF_U32:
		fprintf(out, "%lu", (unsigned long)wl_le32(p));
		break;
	case WL_TF_I32:
		fprintf(out, "%ld", (long)(int32_t)wl_le32(p));
		break;
	case WL_TF_X8:
		fprintf(out, "0x%02X", (unsigned)p[0]);
		break;
	case WL_TF_X16:
		fprintf(out, "0x%04X", (unsigned)wl_le16(p));
		break;
	case WL_TF_X32:
		fprintf(out, "0x%08lX", (unsigned long)wl_le32(p));
		break;
	case WL_TF_F32:
		wl_tf_put_f32(out, wl_le32(p));
		break;
	default:
		fprintf(out, "%02x", p[0]);
		break;
	}
}

void wl_tf_put_value(FILE *out, const wl_tf_field *f, const uint8_t *p)
{
	size_t n = f->count ? f->count : 1;
	if (f->type == WL_TF_NAME) {
		if (clean_name(p, n)) {
			put_quoted(out, p, strnlen((const char *)p, n));
			return;
		}
	}
	if (f->type == WL_TF_NAME || f->type == WL_TF_HEX) {
		/* Always inline: the value may sit in a flow mapping. */
		fputs("!hex \"", out);
		for (size_t i = 0; i < n; i++)
			fprintf(out, i ? " %02x" : "%02x", p[i]);
		fputc('"', out);
		return;
	}
	size_t es = wl_tf_type_size((wl_tf_type)f->type);
	if (n == 1) {
		put_elem(out, (wl_tf_type)f->type, p);
		return;
	}
	fputc('[', out);
	for (size_t i = 0; i < n; i++) {
		if (i)
			fputs(", ", out);
		put_elem(out, (wl_tf_type)f->type, p + i * es);
	}
	fputc(']', out);
}

/* ------------------------------------------------------- classification */

/* Printable ASCII (plus tab, CR, LF) followed by exactly one NUL. */
static bool clean_string(const uint8_t *p, size_t n)
{
	if (n == 0 || p[n - 1] != 0)
		return false;
	for (size_t i = 0; i + 1 < n; i++) {
		uint8_t c = p[i];
		if (!((c >= 0x20 && c < 0x7F) || c == '\t' || c == '\n' || c == '\r'))
			return false;
	}
	return true;
}

wl_tf_view wl_tf_classify(const wl_chunk_type *t, const uint8_t *p, size_t n)
{
	wl_tf_view v = { WL_TF_FORM_HEX, NULL, 0, 0, 0, n };
	v.tail = 0;
	if (!t || t->child_ctx || (t->flags & WL_TYPE_OPAQUE))
		return v;
	if (t->flags & WL_TYPE_STRING) {
		if (clean_string(p, n))
			v.form = WL_TF_FORM_STRING;
		return v;
	}
	const wl_tf_struct *s = wl_tf_lookup(t->short_name);
	if (!s)
		return v;
	size_t size = wl_tf_struct_size(s);
	if (s->layout == WL_TF_ARRAY) {
		if (size == 0 || n < size)
			return v;
		v.form = WL_TF_FORM_ITEMS;
		v.st = s;
		v.elem_size = size;
		v.count = n / size;
		v.tail = n % size;
		return v;
	}
	if (n < size)
		return v;
	v.form = WL_TF_FORM_FIELDS;
	v.st = s;
	v.head = size;
	if (s->rest) {
		v.elem_size = wl_tf_field_size(s->rest);
		v.count = (n - size) / v.elem_size;
	}
	v.tail = n - size - v.count * v.elem_size;
	return v;
}

void wl_tf_marks(char *buf, size_t cap, uint16_t rec)
{
	static const struct {
		uint16_t bit;
		const char *name;
	} marks[] = {
		{ WL_REC_TRUNCATED, "truncated" },
		{ WL_REC_PAST_EOF, "size-past-eof" },
		{ WL_REC_CLAMPED, "clamped" },
		{ WL_REC_EXTENDED, "extended" },
		{ WL_REC_RESYNCED, "resynced" },
		{ WL_REC_FLAG_ON_LEAF, "bit31-on-leaf" },
		{ WL_REC_FLAG_MISSING, "bit31-missing" },
		{ WL_REC_DEPTH, "depth-limit" },
		{ WL_REC_STRAY, "stray" },
		{ WL_REC_TRAILING, "trailing" },
		{ WL_REC_SKIPPED, "resync-skipped" },
	};
	size_t at = 0;
	if (cap)
		buf[0] = 0;
	for (size_t i = 0; i < N(marks) && at < cap; i++)
		if (rec & marks[i].bit) {
			int w = snprintf(buf + at, cap - at, "%s%s", at ? " " : "", marks[i].name);
			if (w < 0)
				break;
			at += (size_t)w;
		}
}
