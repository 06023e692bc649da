/*
 * check_nodes.c - the B3D version and the NODE tree (rules/b3d/nodes.yaml).
 *
 * Rule ids reported here, each at the exact bytes named:
 *   b3d-version                   BB3D version other than 1 (its 4 bytes)
 *   b3d-float-not-finite          a NODE position, scale or rotation is NaN or
 *                                 infinite (the 40 transform bytes)
 *   b3d-node-rotation-not-unit    a NODE rotation quaternion whose length
 *                                 differs from 1 by more than `tolerance`
 *                                 (its 16 rotation bytes)
 *   b3d-duplicate-node-name       a NODE has the name of an earlier NODE (the
 *                                 name bytes; the message gives the first
 *                                 one's offset)
 *   b3d-node-kind-conflict        a NODE holds a MESH and a BONE, or two of
 *                                 either (the second such child chunk)
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#include "check_util.h"
#include "core/vec.h"

void b3d_check_nodes(wl_lint_ctx *ctx);

#define NOT_UNIT WLR_B3D_NODE_ROTATION_NOT_UNIT

static void version(wl_lint_ctx *ctx, const b3d_model *m)
{
	if (!m->version_ok || m->version == 1)
		return;
	wl_report(&ctx->doc->findings, WLR_B3D_VERSION, m->bb3d, -1, wl_chunk_payload_offset(m->bb3d), 4,
		  "BB3D version is %" PRId32 ", not 1: Blitz3D refuses versions above 1, modlib "
		  "versions above 299; Irrlicht and Luanti ignore it",
		  m->version);
}

static void transform(wl_lint_ctx *ctx, const b3d_node *n, double tol)
{
	if (!b3c_finite_v(n->position, 3) || !b3c_finite_v(n->scale, 3) || !b3c_finite_v(n->rotation, 4)) {
		wl_report(&ctx->doc->findings, WLR_B3D_FLOAT_NOT_FINITE, n->src, -1, n->transform_offset, 40,
			  "NODE '%.64s' has a NaN or infinite position, scale or rotation: everything "
			  "below it is placed nowhere",
			  b3c_node_name(n));
		return;
	}
	const float *q = n->rotation;
	double len = wl_q4_len(q);
	if (tol >= 0 && fabs(len - 1.0) > tol)
		wl_report(&ctx->doc->findings, NOT_UNIT, n->src, -1, n->transform_offset + 24, 16,
			  "NODE '%.64s' rotation (w %g, x %g, y %g, z %g) has length %g, not 1: the "
			  "node is scaled and sheared, and slerp towards its keys misbehaves",
			  b3c_node_name(n), q[0], q[1], q[2], q[3], len);
}

/* Second and later MESH/BONE children of n. */
static void kinds(wl_lint_ctx *ctx, const b3d_node *n)
{
	if (n->mesh_count + n->bone_count < 2)
		return;
	size_t seen = 0;
	for (const wl_chunk *k = n->src->first_child; k; k = k->next) {
		if (k->kind != WL_NODE_CHUNK || !k->type || (k->id != B3D_CHUNK_MESH && k->id != B3D_CHUNK_BONE))
			continue;
		if (seen++ == 0)
			continue;
		wl_report(&ctx->doc->findings, WLR_B3D_NODE_KIND_CONFLICT, k, -1, k->offset,
			  b3c_chunk_len(ctx->doc, k),
			  "NODE '%.64s' holds %zu MESH and %zu BONE chunks; this %s is one too many: a NODE "
			  "is a mesh or a bone (Blitz3D, modlib refuses the model)",
			  b3c_node_name(n), n->mesh_count, n->bone_count, wl_chunk_name(ctx->doc, k));
	}
}

static int by_name(const void *a, const void *b)
{
	const b3d_node *x = *(const b3d_node *const *)a, *y = *(const b3d_node *const *)b;
	size_t n = x->name_len < y->name_len ? x->name_len : y->name_len;
	int c = memcmp(x->name, y->name, n);
	if (c)
		return c;
	if (x->name_len != y->name_len)
		return x->name_len < y->name_len ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* A NODE that holds a BONE with at least one weight record. */
static bool weighted_bone(const b3d_node *n)
{
	return n->bone && n->bone->weights.count > 0;
}

/* The first NODE of v[first..i) that holds a weighted BONE when v[i] does
 * too, or NULL: Assimp makes a bone per such NODE (B3DImporter.cpp
 * ReadBB3D) and its validation refuses two bones of one mesh with one name
 * (ValidateDataStructure.cpp, Validate(aiMesh)). */
static const b3d_node *earlier_bone(const b3d_node **v, size_t first, size_t i)
{
	if (!weighted_bone(v[i]))
		return NULL;
	for (size_t k = first; k < i; k++)
		if (weighted_bone(v[k]))
			return v[k];
	return NULL;
}

/* Sorts the named NODEs by (name, file order); every NODE after the first
 * of a run of equal names is a duplicate: b3d-duplicate-bone-name when it
 * and an earlier NODE of the run both hold a weighted BONE, else
 * b3d-duplicate-node-name (one finding per duplicate NODE either way). */
static void duplicates(wl_lint_ctx *ctx, const b3d_model *m)
{
	if (m->node_count < 2)
		return;
	const b3d_node **v = malloc(m->node_count * sizeof *v);
	if (!v)
		return;
	size_t n = 0;
	for (size_t i = 0; i < m->node_count; i++)
		if (m->nodes[i]->name_terminated)
			v[n++] = m->nodes[i];
	qsort(v, n, sizeof *v, by_name);
	for (size_t i = 1, first = 0; i < n; i++) {
		if (v[i]->name_len != v[first]->name_len || memcmp(v[i]->name, v[first]->name, v[i]->name_len)) {
			first = i;
			continue;
		}
		const b3d_node *d = v[i], *bone = earlier_bone(v, first, i);
		if (bone) {
			wl_report(&ctx->doc->findings, WLR_B3D_DUPLICATE_BONE_NAME, d->src, -1,
				  wl_chunk_payload_offset(d->src), d->name_len + 1,
				  "bone NODE name '%.64s' is already used by the bone NODE at offset %" PRIu64
				  ": Assimp's validation refuses two bones of one name, bone lookups by name "
				  "(Luanti set_bone_override, attachments) find only one of them",
				  b3c_node_name(d), (uint64_t)bone->src->offset);
			continue;
		}
		wl_report(&ctx->doc->findings, WLR_B3D_DUPLICATE_NODE_NAME, d->src, -1,
			  wl_chunk_payload_offset(d->src), d->name_len + 1,
			  "NODE name '%.64s' is already used by the NODE at offset %" PRIu64 ": bone lookups "
			  "by name (Luanti set_bone_override, attachments) find only one of them",
			  b3c_node_name(d), (uint64_t)v[first]->src->offset);
	}
	free(v);
}

void b3d_check_nodes(wl_lint_ctx *ctx)
{
	const b3d_model *m = ctx->model;
	if (!m || !m->bb3d)
		return;
	version(ctx, m);
	double tol = wl_lint_enabled(ctx, NOT_UNIT) ? wl_lint_param(ctx, NOT_UNIT, "tolerance") : -1;
	for (size_t i = 0; i < m->node_count; i++) {
		const b3d_node *n = m->nodes[i];
		if (n->transform_ok)
			transform(ctx, n, tol);
		kinds(ctx, n);
	}
	duplicates(ctx, m);
}
