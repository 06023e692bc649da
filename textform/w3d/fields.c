/*
 * fields.c - the struct field tables of the W3D text form (one entry per
 * chunk type with a known payload layout) and their lookup.  Shared by the
 * text form writer, the assembler and w3ddump; how values are printed and
 * payloads split by a table is the engine's (textform/print.c,
 * textform/view.c).
 *
 * Layouts and field names: seeds/000_2d9a53fdbe3a6a75.txt (W3D spec struct
 * definitions) and notes/w3d_reference.md §2.1-§2.13; sizes checked against
 * §2.14 by tests/textform/w3d/test_textform.c (the table sizes must equal the schema's
 * fixed record and element sizes).
 */
#include "textform/textform.h"

#include <string.h>

#define F(n, t, c) { n, WL_TF_##t, c, NULL }
/* A field holding the nested struct s (a wl_tf_struct). */
#define S(n, s) { n, WL_TF_STRUCT, 1, &s }
#define N(a) (sizeof(a) / sizeof((a)[0]))
/* The layout of a nested struct or of a part's element. */
#define SUB(name, f) { name, WL_TF_RECORD, f, N(f), NULL, NULL, 0 }

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
/* W3dShaderStruct, 16 bytes (also nested in W3dEmitterInfoStructV2). */
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
 * these 8 bytes (NumTimeCodes is NumFrames for adaptive delta, §2.5); what
 * follows depends on the header's Flavor (wl_tf_context). */
static const wl_tf_field compressed_animation_channel[] = {
	F("NumTimeCodes", U32, 1), F("Pivot", U16, 1), F("VectorLen", U8, 1), F("Flags", U8, 1),
};
/* Time-coded packet: uint32 time code (bits 0-30 frame, bit 31
 * W3D_TIMECODED_BINARY_MOVEMENT_FLAG), then VectorLen floats. */
static const wl_tf_field timecoded_packet[] = { F("TimeCode", U32, 1), F("Values", F32, 0) };
static const wl_tf_struct timecoded_packet_elem = SUB("time-coded packet", timecoded_packet);
/* Flavor 0: NumTimeCodes packets (Data); flavors 1 and 2: float Scale (the
 * 12-byte W3dAdaptiveDeltaAnimChannelStruct header), VectorLen initial
 * values, then the delta blocks as hex (Data); unknown flavor: Data hex.
 * The two Data parts share the key: a sequence is packets, a scalar hex. */
static const wl_tf_part compressed_animation_channel_parts[] = {
	{ "Scale", WL_TF_PART_VALUE, WL_TF_F32, NULL, -1, 0, -1, WL_TF_IN_ADAPTIVE },
	{ "InitialValues", WL_TF_PART_VALUES, WL_TF_F32, NULL, 2, 0, -1, WL_TF_IN_ADAPTIVE },
	{ "Data", WL_TF_PART_ITEMS, 0, &timecoded_packet_elem, 0, 0, 2, WL_TF_IN_TIMECODED },
	{ "Data", WL_TF_PART_HEX, 0, NULL, -1, 0, -1, WL_TF_IN_PLAIN | WL_TF_IN_ADAPTIVE },
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

/* Emitter records (§2.10, w3d_file.h W3dEmitter*Struct).  Sizes: objects.h
 * W3D_EMITTER_*_SIZE, checked by tests/textform/w3d/test_textform.c. */

/* W3dEmitterUserInfoStruct, 12 bytes: Type, SizeofStringParam, then
 * StringParam[1] and its padding (Pad, zero as the tools write it); the
 * loader reads the SizeofStringParam bytes of the string after these 12
 * (part_ldr.cpp Read_User_Data), dumped as the part StringParam. */
static const wl_tf_field emitter_user_data[] = {
	F("Type", U32, 1), F("SizeofStringParam", U32, 1), F("Pad", U32, 1),
};
static const wl_tf_part emitter_user_data_parts[] = {
	{ "StringParam", WL_TF_PART_TEXT, 0, NULL, 1, 0, -1, WL_TF_IN_PLAIN },
};
/* W3dEmitterInfoStruct, 332 bytes (colours W3dRGBAStruct). */
static const wl_tf_field emitter_info[] = {
	F("TextureFilename", NAME, 260), F("StartSize", F32, 1), F("EndSize", F32, 1),
	F("Lifetime", F32, 1), F("EmissionRate", F32, 1), F("MaxEmissions", F32, 1),
	F("VelocityRandom", F32, 1), F("PositionRandom", F32, 1), F("FadeTime", F32, 1),
	F("Gravity", F32, 1), F("Elasticity", F32, 1), F("Velocity", F32, 3),
	F("Acceleration", F32, 3), F("StartColor", U8, 4), F("EndColor", U8, 4),
};
/* W3dVolumeRandomizerStruct, 32 bytes: ClassID is Vector3Randomizer::
 * CLASSID_* (0 solid box, 1 solid sphere, 2 hollow sphere, 3 solid cylinder). */
static const wl_tf_field volume_randomizer[] = {
	F("ClassID", U32, 1), F("Value1", F32, 1), F("Value2", F32, 1), F("Value3", F32, 1),
	F("reserved", U32, 4),
};
static const wl_tf_struct volume_randomizer_st = SUB("W3dVolumeRandomizerStruct", volume_randomizer);
static const wl_tf_struct shader_st = SUB("W3dShaderStruct", shader);
/* W3dEmitterInfoStructV2, 124 bytes: Shader at 76, RenderMode at 92. */
static const wl_tf_field emitter_info_v2[] = {
	F("BurstSize", U32, 1), S("CreationVolume", volume_randomizer_st),
	S("VelRandom", volume_randomizer_st), F("OutwardVel", F32, 1), F("VelInherit", F32, 1),
	S("Shader", shader_st), F("RenderMode", U32, 1), F("FrameMode", U32, 1),
	F("reserved", U32, 6),
};
/* W3dEmitterPropertyStruct, 40 bytes, then ColorKeyframes colour keys,
 * OpacityKeyframes opacity keys and SizeKeyframes size keys (the counts
 * include the start key), 8 bytes each. */
static const wl_tf_field emitter_props[] = {
	F("ColorKeyframes", U32, 1), F("OpacityKeyframes", U32, 1), F("SizeKeyframes", U32, 1),
	F("ColorRandom", U8, 4), F("OpacityRandom", F32, 1), F("SizeRandom", F32, 1),
	F("reserved", U32, 4),
};
static const wl_tf_field color_key[] = { F("Time", F32, 1), F("Color", U8, 4) };
static const wl_tf_field opacity_key[] = { F("Time", F32, 1), F("Opacity", F32, 1) };
static const wl_tf_field size_key[] = { F("Time", F32, 1), F("Size", F32, 1) };
static const wl_tf_struct color_key_st = SUB("W3dEmitterColorKeyframeStruct", color_key);
static const wl_tf_struct opacity_key_st = SUB("W3dEmitterOpacityKeyframeStruct", opacity_key);
static const wl_tf_struct size_key_st = SUB("W3dEmitterSizeKeyframeStruct", size_key);
static const wl_tf_part emitter_props_parts[] = {
	{ "ColorKeys", WL_TF_PART_ITEMS, 0, &color_key_st, 0, 0, -1, WL_TF_IN_PLAIN },
	{ "OpacityKeys", WL_TF_PART_ITEMS, 0, &opacity_key_st, 1, 0, -1, WL_TF_IN_PLAIN },
	{ "SizeKeys", WL_TF_PART_ITEMS, 0, &size_key_st, 2, 0, -1, WL_TF_IN_PLAIN },
};
/* W3dEmitterLinePropertiesStruct, 64 bytes: Flags are W3D_ELINE_*. */
static const wl_tf_field emitter_line_properties[] = {
	F("Flags", X32, 1), F("SubdivisionLevel", U32, 1), F("NoiseAmplitude", F32, 1),
	F("MergeAbortFactor", F32, 1), F("TextureTileFactor", F32, 1), F("UPerSec", F32, 1),
	F("VPerSec", F32, 1), F("Reserved", U32, 9),
};
/* W3dEmitterRotationHeaderStruct (16 bytes), W3dEmitterFrameHeaderStruct
 * (16), W3dEmitterBlurTimeHeaderStruct (12), each followed by
 * KeyframeCount + 1 keys of 8 bytes (the first is the start value). */
static const wl_tf_field emitter_rotation_header[] = {
	F("KeyframeCount", U32, 1), F("Random", F32, 1), F("OrientationRandom", F32, 1),
	F("Reserved", U32, 1),
};
static const wl_tf_field emitter_frame_header[] = {
	F("KeyframeCount", U32, 1), F("Random", F32, 1), F("Reserved", U32, 2),
};
static const wl_tf_field emitter_blur_time_header[] = {
	F("KeyframeCount", U32, 1), F("Random", F32, 1), F("Reserved", U32, 1),
};
static const wl_tf_field rotation_key[] = { F("Time", F32, 1), F("Rotation", F32, 1) };
static const wl_tf_field frame_key[] = { F("Time", F32, 1), F("Frame", F32, 1) };
static const wl_tf_field blur_time_key[] = { F("Time", F32, 1), F("BlurTime", F32, 1) };
static const wl_tf_struct rotation_key_st = SUB("W3dEmitterRotationKeyframeStruct", rotation_key);
static const wl_tf_struct frame_key_st = SUB("W3dEmitterFrameKeyframeStruct", frame_key);
static const wl_tf_struct blur_time_key_st = SUB("W3dEmitterBlurTimeKeyframeStruct", blur_time_key);
static const wl_tf_part emitter_rotation_parts[] = {
	{ "Keys", WL_TF_PART_ITEMS, 0, &rotation_key_st, 0, 1, -1, WL_TF_IN_PLAIN },
};
static const wl_tf_part emitter_frame_parts[] = {
	{ "Keys", WL_TF_PART_ITEMS, 0, &frame_key_st, 0, 1, -1, WL_TF_IN_PLAIN },
};
static const wl_tf_part emitter_blur_time_parts[] = {
	{ "Keys", WL_TF_PART_ITEMS, 0, &blur_time_key_st, 0, 1, -1, WL_TF_IN_PLAIN },
};
/* W3dEmitterExtraInfoStruct (ZH), 40 bytes. */
static const wl_tf_field emitter_extra_info[] = { F("FutureStartTime", F32, 1), F("Padding", U32, 9) };

/* Aggregate records (§2.12, agg_def.cpp). */

/* W3dAggregateInfoStruct, 36 bytes, then SubobjectCount
 * W3dAggregateSubobjectStruct of 64 bytes in the same chunk. */
static const wl_tf_field aggregate_info[] = { F("BaseModelName", NAME, 32), F("SubobjectCount", U32, 1) };
static const wl_tf_field aggregate_subobject[] = { F("SubobjectName", NAME, 32), F("BoneName", NAME, 32) };
static const wl_tf_struct aggregate_subobject_st = SUB("W3dAggregateSubobjectStruct", aggregate_subobject);
static const wl_tf_part aggregate_info_parts[] = {
	{ "Subobjects", WL_TF_PART_ITEMS, 0, &aggregate_subobject_st, 1, 0, -1, WL_TF_IN_PLAIN },
};
/* W3dTextureReplacerHeaderStruct, 4 bytes; the 1492-byte
 * W3dTextureReplacerStruct entries that may follow are tail hex (the
 * loaders report them as obsolete and do not read them). */
static const wl_tf_field texture_replacer_info[] = { F("ReplacedTexturesCount", U32, 1) };
/* W3dAggregateMiscInfo, 20 bytes: Flags bit 0 W3D_AGGREGATE_FORCE_SUB_OBJ_LOD. */
static const wl_tf_field aggregate_class_info[] = {
	F("OriginalClassID", X32, 1), F("Flags", X32, 1), F("reserved", U32, 3),
};
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

#define REC(name, f) { name, WL_TF_RECORD, f, N(f), NULL, NULL, 0 }
#define RECR(name, f, r) { name, WL_TF_RECORD, f, N(f), &r, NULL, 0 }
#define RECP(name, f, p) { name, WL_TF_RECORD, f, N(f), NULL, p, N(p) }
#define ARR(name, f) { name, WL_TF_ARRAY, f, N(f), NULL, NULL, 0 }

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
	RECP("COMPRESSED_ANIMATION_CHANNEL", compressed_animation_channel,
	     compressed_animation_channel_parts),
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
	RECP("EMITTER_USER_DATA", emitter_user_data, emitter_user_data_parts),
	REC("EMITTER_INFO", emitter_info),
	REC("EMITTER_INFOV2", emitter_info_v2),
	RECP("EMITTER_PROPS", emitter_props, emitter_props_parts),
	REC("EMITTER_LINE_PROPERTIES", emitter_line_properties),
	RECP("EMITTER_ROTATION_KEYFRAMES", emitter_rotation_header, emitter_rotation_parts),
	RECP("EMITTER_FRAME_KEYFRAMES", emitter_frame_header, emitter_frame_parts),
	RECP("EMITTER_BLUR_TIME_KEYFRAMES", emitter_blur_time_header, emitter_blur_time_parts),
	REC("EMITTER_EXTRA_INFO", emitter_extra_info),
	REC("AGGREGATE_HEADER", version_name16),
	RECP("AGGREGATE_INFO", aggregate_info, aggregate_info_parts),
	REC("TEXTURE_REPLACER_INFO", texture_replacer_info),
	REC("AGGREGATE_CLASS_INFO", aggregate_class_info),
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

wl_tf_view wl_tf_classify(const wl_chunk_type *t, const uint8_t *p, size_t n)
{
	return wl_tf_classify_in(t, p, n, WL_TF_IN_PLAIN);
}

wl_tf_view wl_tf_classify_in(const wl_chunk_type *t, const uint8_t *p, size_t n, unsigned in)
{
	return wl_tf_classify_table(t, t ? wl_tf_lookup(t->short_name) : NULL, p, n, in);
}
