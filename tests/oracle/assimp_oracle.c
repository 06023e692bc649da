/*
 * assimp_oracle.c - the B3D oracle of Assimp (Debian libassimp-dev 5.2.5,
 * code/AssetLib/B3D/B3DImporter.cpp): imports each file named on stdin (one
 * path a line) through the C API, aiImportFile with
 * aiProcess_ValidateDataStructure (the step that refuses scenes whose data
 * contradict each other), and prints what it imported as lines
 * (tests/oracle/compare.py reads them; docs/oracle.md):
 *   file PATH
 *   refused MESSAGE      aiImportFile gave no scene; MESSAGE: aiGetErrorString()
 *   mesh MESHES VERTICES TRIANGLES ZERONORMALS
 *                        ZERONORMALS: vertices whose normal has length <= 1e-6
 *   joints BONES WEIGHTS KEYS ANIMATIONS WEIGHTSUM
 *                        BONES and WEIGHTS over every mesh; KEYS: position,
 *                        rotation and scale keys over every channel
 *   values NONFINITE HASH DUPWEIGHTS NEGKEYS
 *                        NONFINITE: imported floats that are NaN or infinite
 *                        (positions, normals, texture coordinates, material
 *                        floats, node transforms, key values, weights);
 *                        HASH: FNV-1a over the texture coordinates, the
 *                        weights, every node's transform and every key (time
 *                        and value, in stored order), each float as printed
 *                        with 6 digits; DUPWEIGHTS: weights of a bone on a
 *                        vertex it already weights; NEGKEYS: keys at a time
 *                        below 0
 *   bone MESH NAME WEIGHTS HASH
 *                        per bone of each mesh: HASH is FNV-1a over the
 *                        sorted vertex ids it binds
 *   end
 * One process for all files; a file on which Assimp crashes or hangs (10 s)
 * ends it, and compare.py starts it again after that file.
 */
#include <assimp/cimport.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Seconds one import may take: SIGALRM ends the process (compare.py records
 * the file as a crash and starts the oracle again after it). */
#define WATCHDOG_SECONDS 10

/* s on one line: control characters become spaces. */
static void oneline(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 32)
			*s = ' ';
}

static uint64_t fnv(uint64_t h, uint32_t v)
{
	for (int i = 0; i < 4; i++) {
		h ^= (v >> (8 * i)) & 0xffu;
		h *= 1099511628211ull;
	}
	return h;
}

static int by_value(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

static void bone_line(unsigned mesh, const struct aiBone *b)
{
	uint32_t *ids = malloc((b->mNumWeights ? b->mNumWeights : 1) * sizeof *ids);
	uint64_t h = 1469598103934665603ull;
	if (ids) {
		for (unsigned i = 0; i < b->mNumWeights; i++)
			ids[i] = b->mWeights[i].mVertexId;
		qsort(ids, b->mNumWeights, sizeof *ids, by_value);
		for (unsigned i = 0; i < b->mNumWeights; i++)
			h = fnv(h, ids[i]);
		free(ids);
	}
	char name[MAXLEN + 1];
	memcpy(name, b->mName.data, MAXLEN);
	name[MAXLEN] = 0;
	oneline(name);
	printf("bone %u %s %u %016llx\n", mesh, name, b->mNumWeights, (unsigned long long)h);
}

/* What the values line accumulates. */
struct values {
	unsigned long nonfinite, dupweights, negkeys;
	uint64_t hash;
};

static void add(struct values *v, double f)
{
	char buf[32];
	if (!isfinite(f))
		v->nonfinite++;
	int n = snprintf(buf, sizeof buf, "%.6g ", f);
	for (int i = 0; i < n && i < (int)sizeof buf - 1; i++) {
		v->hash ^= (unsigned char)buf[i];
		v->hash *= 1099511628211ull;
	}
}

static void add_node(struct values *v, const struct aiNode *n, unsigned depth)
{
	const ai_real *m = &n->mTransformation.a1;
	for (int k = 0; k < 16; k++)
		add(v, m[k]);
	for (unsigned c = 0; depth < 1000 && c < n->mNumChildren; c++)
		add_node(v, n->mChildren[c], depth + 1);
}

/* Position or scaling keys: time and value, in stored order. */
static void add_vector_keys(struct values *v, const struct aiVectorKey *keys, unsigned n)
{
	for (unsigned k = 0; k < n; k++) {
		v->negkeys += keys[k].mTime < 0;
		add(v, keys[k].mTime);
		add(v, keys[k].mValue.x);
		add(v, keys[k].mValue.y);
		add(v, keys[k].mValue.z);
	}
}

static void values_line(const struct aiScene *s)
{
	struct values v = { 0, 0, 0, 1469598103934665603ull };
	for (unsigned m = 0; m < s->mNumMeshes; m++) {
		const struct aiMesh *me = s->mMeshes[m];
		for (unsigned i = 0; i < me->mNumVertices; i++) {
			const struct aiVector3D *p = &me->mVertices[i];
			v.nonfinite += (unsigned)(!isfinite(p->x) + !isfinite(p->y) + !isfinite(p->z));
			if (me->mNormals) {
				p = &me->mNormals[i];
				v.nonfinite += (unsigned)(!isfinite(p->x) + !isfinite(p->y) + !isfinite(p->z));
			}
			for (unsigned t = 0; t < AI_MAX_NUMBER_OF_TEXTURECOORDS; t++)
				if (me->mTextureCoords[t])
					for (unsigned c = 0; c < me->mNumUVComponents[t]; c++)
						add(&v, (&me->mTextureCoords[t][i].x)[c]);
		}
		for (unsigned b = 0; b < me->mNumBones; b++) {
			const struct aiBone *bo = me->mBones[b];
			uint32_t *ids = malloc((bo->mNumWeights ? bo->mNumWeights : 1) * sizeof *ids);
			for (unsigned i = 0; i < bo->mNumWeights; i++) {
				add(&v, bo->mWeights[i].mWeight);
				if (ids)
					ids[i] = bo->mWeights[i].mVertexId;
			}
			if (ids) {
				qsort(ids, bo->mNumWeights, sizeof *ids, by_value);
				for (unsigned i = 1; i < bo->mNumWeights; i++)
					v.dupweights += ids[i] == ids[i - 1];
				free(ids);
			}
		}
	}
	for (unsigned m = 0; m < s->mNumMaterials; m++)
		for (unsigned p = 0; p < s->mMaterials[m]->mNumProperties; p++) {
			const struct aiMaterialProperty *pr = s->mMaterials[m]->mProperties[p];
			if (pr->mType == aiPTI_Float)
				for (unsigned i = 0; i + sizeof(float) <= pr->mDataLength; i += (unsigned)sizeof(float)) {
					float f;
					memcpy(&f, pr->mData + i, sizeof f);
					v.nonfinite += (unsigned)!isfinite(f);
				}
		}
	if (s->mRootNode)
		add_node(&v, s->mRootNode, 0);
	for (unsigned a = 0; a < s->mNumAnimations; a++)
		for (unsigned c = 0; c < s->mAnimations[a]->mNumChannels; c++) {
			const struct aiNodeAnim *ch = s->mAnimations[a]->mChannels[c];
			add_vector_keys(&v, ch->mPositionKeys, ch->mNumPositionKeys);
			add_vector_keys(&v, ch->mScalingKeys, ch->mNumScalingKeys);
			for (unsigned k = 0; k < ch->mNumRotationKeys; k++) {
				v.negkeys += ch->mRotationKeys[k].mTime < 0;
				add(&v, ch->mRotationKeys[k].mTime);
				add(&v, ch->mRotationKeys[k].mValue.w);
				add(&v, ch->mRotationKeys[k].mValue.x);
				add(&v, ch->mRotationKeys[k].mValue.y);
				add(&v, ch->mRotationKeys[k].mValue.z);
			}
		}
	printf("values %lu %016llx %lu %lu\n", v.nonfinite, (unsigned long long)v.hash, v.dupweights, v.negkeys);
}

static void report(const struct aiScene *s)
{
	unsigned long verts = 0, tris = 0, bones = 0, weights = 0, keys = 0, zero = 0;
	double wsum = 0;
	for (unsigned m = 0; m < s->mNumMeshes; m++) {
		const struct aiMesh *me = s->mMeshes[m];
		verts += me->mNumVertices;
		tris += me->mNumFaces;
		bones += me->mNumBones;
		for (unsigned v = 0; me->mNormals && v < me->mNumVertices; v++) {
			const struct aiVector3D *n = &me->mNormals[v];
			zero += n->x * n->x + n->y * n->y + n->z * n->z <= 1e-12f;
		}
		for (unsigned b = 0; b < me->mNumBones; b++) {
			weights += me->mBones[b]->mNumWeights;
			for (unsigned i = 0; i < me->mBones[b]->mNumWeights; i++)
				wsum += me->mBones[b]->mWeights[i].mWeight;
		}
	}
	for (unsigned a = 0; a < s->mNumAnimations; a++)
		for (unsigned c = 0; c < s->mAnimations[a]->mNumChannels; c++) {
			const struct aiNodeAnim *ch = s->mAnimations[a]->mChannels[c];
			keys += ch->mNumPositionKeys + ch->mNumRotationKeys + ch->mNumScalingKeys;
		}
	printf("mesh %u %lu %lu %lu\n", s->mNumMeshes, verts, tris, zero);
	printf("joints %lu %lu %lu %u %.6g\n", bones, weights, keys, s->mNumAnimations, wsum);
	values_line(s);
	for (unsigned m = 0; m < s->mNumMeshes; m++)
		for (unsigned b = 0; b < s->mMeshes[m]->mNumBones; b++)
			bone_line(m, s->mMeshes[m]->mBones[b]);
}

int main(void)
{
	char line[4096];
	while (fgets(line, sizeof line, stdin)) {
		line[strcspn(line, "\r\n")] = 0;
		printf("file %s\n", line);
		fflush(stdout); /* a crash names its file */
		alarm(WATCHDOG_SECONDS);
		const struct aiScene *s = aiImportFile(line, aiProcess_ValidateDataStructure);
		if (!s) {
			char msg[1024];
			snprintf(msg, sizeof msg, "%s", aiGetErrorString());
			oneline(msg);
			printf("refused %s\n", msg);
		} else {
			report(s);
			aiReleaseImport(s);
		}
		alarm(0);
		printf("end\n");
		fflush(stdout);
	}
	return 0;
}
