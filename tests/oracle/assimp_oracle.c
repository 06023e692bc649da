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
