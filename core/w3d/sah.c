/* sah.c - SAH cost, node count and depth of a W3D AABTree (see sah.h). */
#include "sah.h"

#include <stdlib.h>
#include <string.h>

static double extent(float lo, float hi)
{
	double d = (double)hi - (double)lo;
	return d > 0.0 ? d : (d == d ? 0.0 : d); /* keep NaN */
}

double w3d_box_area(const w3d_vec3 *min, const w3d_vec3 *max)
{
	double dx = extent(min->x, max->x);
	double dy = extent(min->y, max->y);
	double dz = extent(min->z, max->z);
	/* One product per statement: no contraction into fused multiply-adds,
	 * so every compiler gives the same bits. */
	double a = dx * dy;
	double b = dy * dz;
	double c = dz * dx;
	double s = a + b;
	s = s + c;
	return 2.0 * s;
}

typedef struct walk_item {
	uint32_t node;
	uint32_t depth;
} walk_item;

int w3d_aabtree_sah(const w3d_aabtree_node *nodes, size_t node_count, w3d_sah_stats *out)
{
	memset(out, 0, sizeof *out);
	if (node_count == 0)
		return 0;
	if (node_count > UINT32_MAX)
		node_count = UINT32_MAX; /* indices are 32-bit: the rest is unreachable */
	uint8_t *seen = calloc(node_count, 1);
	walk_item *stack = malloc(node_count * sizeof *stack);
	if (!seen || !stack) {
		free(seen);
		free(stack);
		return -1;
	}
	bool ok = true;
	double inner_sum = 0.0, leaf_sum = 0.0;
	double root = w3d_box_area(&nodes[0].min, &nodes[0].max);
	size_t sp = 0;
	stack[sp++] = (walk_item){ 0, 1 };
	seen[0] = 1;
	while (sp) {
		walk_item it = stack[--sp];
		const w3d_aabtree_node *n = &nodes[it.node];
		double a = w3d_box_area(&n->min, &n->max);
		out->node_count++;
		if (it.depth > out->depth)
			out->depth = it.depth;
		if (w3d_aabtree_node_is_leaf(n)) {
			uint32_t t = n->back_or_poly_count;
			double term = a * (double)t;
			leaf_sum = leaf_sum + term;
			out->leaf_count++;
			out->leaf_polys += t;
			if (t > out->max_leaf_polys)
				out->max_leaf_polys = t;
			continue;
		}
		inner_sum = inner_sum + a;
		out->inner_count++;
		/* Push back first so the front subtree is walked first. */
		uint32_t ch[2] = { n->back_or_poly_count, n->front_or_poly0 };
		for (int k = 0; k < 2; k++) {
			uint32_t c = ch[k];
			if (c >= node_count || c == it.node || seen[c] || (k == 0 && c == ch[1])) {
				ok = false;
				continue;
			}
			seen[c] = 1;
			stack[sp++] = (walk_item){ c, it.depth + 1 };
		}
	}
	if (out->node_count != node_count)
		ok = false;
	double ci = inner_sum * W3D_SAH_C_INNER;
	double ct = leaf_sum * W3D_SAH_C_TRI;
	double cost = ci + ct;
	out->root_area = root;
	if (root > 0.0) {
		out->sah = cost / root;
	} else {
		/* Degenerate root (a line or a point): every ratio is 1. */
		double li = (double)out->inner_count * W3D_SAH_C_INNER;
		double lt = (double)out->leaf_polys * W3D_SAH_C_TRI;
		out->sah = root == 0.0 ? li + lt : root; /* NaN root stays NaN */
	}
	out->well_formed = ok;
	free(seen);
	free(stack);
	return 0;
}
