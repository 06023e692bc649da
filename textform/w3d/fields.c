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
#include "../textform.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/cursor.h"
#include "../../core/w3d/hierarchy.h"
#include "../../core/w3d/w3d_format.h"

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
 * W3D_EMITTER_*_SIZE, checked by tests/check_textform.c. */

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
	if (f->type == WL_TF_STRUCT)
		return f->sub ? n * wl_tf_struct_size(f->sub) : 0;
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

void wl_tf_put_quoted(FILE *out, const uint8_t *p, size_t n)
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

/* A nested struct as a flow mapping. */
static void put_struct(FILE *out, const wl_tf_struct *s, const uint8_t *p)
{
	size_t at = 0;
	fputc('{', out);
	for (size_t j = 0; j < s->field_count; j++) {
		const wl_tf_field *f = &s->fields[j];
		fprintf(out, "%s%s: ", j ? ", " : "", f->name);
		wl_tf_put_value(out, f, p + at);
		at += wl_tf_field_size(f);
	}
	fputc('}', out);
}

void wl_tf_put_value(FILE *out, const wl_tf_field *f, const uint8_t *p)
{
	size_t n = f->count ? f->count : 1;
	if (f->type == WL_TF_STRUCT) {
		if (f->sub)
			put_struct(out, f->sub, p);
		else
			fputs("{}", out);
		return;
	}
	if (f->type == WL_TF_NAME) {
		if (clean_name(p, n)) {
			wl_tf_put_quoted(out, p, strnlen((const char *)p, n));
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

size_t wl_tf_put_item(FILE *out, const wl_tf_struct *e, const uint8_t *p, size_t width)
{
	size_t at = 0;
	fputc('{', out);
	for (size_t j = 0; j < e->field_count; j++) {
		const wl_tf_field *f = &e->fields[j];
		fprintf(out, "%s%s: ", j ? ", " : "", f->name);
		if (f->count) {
			wl_tf_put_value(out, f, p + at);
			at += wl_tf_field_size(f);
			continue;
		}
		wl_tf_field one = *f;
		one.count = 1;
		size_t es = wl_tf_field_size(&one);
		fputc('[', out);
		for (size_t i = 0; i < width; i++) {
			if (i)
				fputs(", ", out);
			wl_tf_put_value(out, &one, p + at);
			at += es;
		}
		fputc(']', out);
	}
	fputc('}', out);
	return at;
}

/* ------------------------------------------------------- classification */

bool wl_tf_clean_text(const uint8_t *p, size_t n)
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

/* Field fi of record s read from p (the record is present) as an unsigned
 * count; 0 for a field that is not a number. */
static uint64_t field_count_value(const wl_tf_struct *s, int fi, const uint8_t *p)
{
	size_t at = 0;
	for (int j = 0; j < fi; j++)
		at += wl_tf_field_size(&s->fields[j]);
	switch (s->fields[fi].type) {
	case WL_TF_U8:
	case WL_TF_X8:
		return p[at];
	case WL_TF_U16:
	case WL_TF_X16:
		return wl_le16(p + at);
	case WL_TF_U32:
	case WL_TF_X32:
		return wl_le32(p + at);
	default:
		return 0;
	}
}

/* Splits the bytes after a record's fixed fields and rest, from v->head +
 * rest, into the parts the dump writes in context `in` (see wl_tf_part). */
static void split_parts(wl_tf_view *v, const uint8_t *p, size_t n, size_t at, unsigned in)
{
	const wl_tf_struct *s = v->st;
	for (size_t i = 0; i < s->part_count && v->span_count < WL_TF_MAX_PARTS; i++) {
		const wl_tf_part *pt = &s->parts[i];
		if (!(pt->in & in))
			continue;
		size_t avail = n - at, es = 1, width = 0;
		uint64_t want = UINT64_MAX;
		if (pt->count_of >= 0 && (size_t)pt->count_of < s->field_count)
			want = field_count_value(s, pt->count_of, p) + pt->count_add;
		switch (pt->kind) {
		case WL_TF_PART_VALUE:
			want = 1;
			es = wl_tf_type_size((wl_tf_type)pt->type);
			break;
		case WL_TF_PART_VALUES:
			es = wl_tf_type_size((wl_tf_type)pt->type);
			break;
		case WL_TF_PART_ITEMS:
			if (!pt->elem)
				return;
			if (pt->width_of >= 0 && (size_t)pt->width_of < s->field_count)
				width = (size_t)field_count_value(s, pt->width_of, p);
			es = 0;
			for (size_t j = 0; j < pt->elem->field_count; j++) {
				const wl_tf_field *f = &pt->elem->fields[j];
				es += f->count ? wl_tf_field_size(f) : width * wl_tf_field_size(f);
			}
			if (es == 0)
				return; /* an element of no bytes: nothing to count */
			break;
		default: /* TEXT, HEX: bytes */
			break;
		}
		size_t fit = avail / es;
		size_t k = want < fit ? (size_t)want : fit;
		if (k) {
			wl_tf_span *sp = &v->spans[v->span_count++];
			sp->part = pt;
			sp->at = at;
			sp->count = k;
			sp->elem_size = es;
			sp->width = width;
			at += k * es;
		}
		if (k < want && want != UINT64_MAX)
			break; /* fewer than the count says: the rest is tail */
	}
	v->tail = n - at;
}

wl_tf_view wl_tf_classify(const wl_chunk_type *t, const uint8_t *p, size_t n)
{
	return wl_tf_classify_in(t, p, n, WL_TF_IN_PLAIN);
}

wl_tf_view wl_tf_classify_in(const wl_chunk_type *t, const uint8_t *p, size_t n, unsigned in)
{
	return wl_tf_classify_table(t, t ? wl_tf_lookup(t->short_name) : NULL, p, n, in);
}

wl_tf_view wl_tf_classify_table(const wl_chunk_type *t, const wl_tf_struct *s, const uint8_t *p,
				size_t n, unsigned in)
{
	wl_tf_view v;
	memset(&v, 0, sizeof v);
	v.form = WL_TF_FORM_HEX;
	if (!t || t->child_ctx || (t->flags & WL_TYPE_OPAQUE))
		return v;
	if (t->flags & WL_TYPE_STRING) {
		if (wl_tf_clean_text(p, n))
			v.form = WL_TF_FORM_STRING;
		return v;
	}
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
	if (s->part_count)
		split_parts(&v, p, n, size + v.count * v.elem_size, in);
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
