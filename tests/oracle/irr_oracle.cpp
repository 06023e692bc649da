/*
 * irr_oracle.cpp - the B3D oracle of Irrlicht 1.8 (Debian libirrlicht-dev,
 * the loader Luanti's irr/src/CB3DMeshFileLoader.cpp is forked from): loads
 * each file named on stdin (one path a line) with the engine's own
 * CB3DMeshFileLoader through ISceneManager::getMesh, with the null video
 * driver, and prints what it loaded as lines (tests/oracle/compare.py reads
 * them; docs/oracle.md):
 *   file PATH
 *   refused MESSAGE          getMesh gave no mesh; MESSAGE: the loader's last
 *                            log line (its own error text)
 *   mesh BUFFERS VERTICES TRIANGLES FRAMES ZERONORMALS
 *                            ZERONORMALS: loaded vertices whose normal has
 *                            length <= 1e-6 (drawn black)
 *   joints JOINTS WEIGHTS KEYS WEIGHTSUM
 *   bone INDEX NAME WEIGHTS HASH
 *                            per joint with weights: HASH is FNV-1a over the
 *                            sorted (buffer, vertex) pairs it binds
 *   values NONFINITE HASH DUPWEIGHTS NEGKEYS
 *                            NONFINITE: loaded floats that are NaN or
 *                            infinite (positions, normals, texture
 *                            coordinates and matrices, joint matrices, key values,
 *                            weights); HASH: FNV-1a over the texture
 *                            coordinates, every joint's local matrix, its
 *                            weights and every key (frame and value, in
 *                            stored order), each float as printed with 6
 *                            digits; DUPWEIGHTS: weights of a joint on a
 *                            (buffer, vertex) it already weights; NEGKEYS:
 *                            keys stored at a frame below 0
 *   pose FRAME SUMX SUMY SUMZ  per chosen frame (0 and 1/5 steps of FRAMES)
 *   end
 * With a folder as the first argument, the posed positions of every chosen
 * frame are also written to FOLDER/N.pose (N: the file's line number from 0,
 * plus the optional second argument, the number of the first file when
 * compare.py restarts the oracle after a crash; little-endian float32
 * x y z per vertex, buffers in order, frames in order),
 * for compare.py's pose check of repairs.  One process for all files; a
 * file on which the engine crashes or hangs (10 s) ends it, and compare.py
 * starts it again after that file.
 * C++ because Irrlicht has no C API; the harness is C11 (tests/oracle/).
 */
#include <irrlicht.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <unistd.h>

using namespace irr;

namespace {

/* Seconds one file may take (load and poses; IRR_ORACLE_SECONDS overrides
 * it): the engine loops forever on some damaged files; SIGALRM ends the
 * process, compare.py records the file as a crash and starts the oracle
 * again after it. */
const unsigned WATCHDOG_SECONDS = 10;

/* IRR_ORACLE_COUNTS_ONLY=1: no pose lines (the counts of a load only, for
 * tests/oracle/salvage_irr.py: posing damaged models is what takes long). */
bool counts_only()
{
	const char *e = std::getenv("IRR_ORACLE_COUNTS_ONLY");
	return e && std::strcmp(e, "1") == 0;
}

unsigned watchdog_seconds()
{
	const char *e = std::getenv("IRR_ORACLE_SECONDS");
	unsigned long v = e ? std::strtoul(e, nullptr, 10) : 0;
	return v >= 1 && v <= 3600 ? (unsigned)v : WATCHDOG_SECONDS;
}

/* Keeps the engine's last log line: the loader's reason for a refusal. */
struct LogKeeper : public IEventReceiver {
	std::string last;
	bool OnEvent(const SEvent &e) override
	{
		if (e.EventType == EET_LOG_TEXT_EVENT) {
			last = e.LogEvent.Text ? e.LogEvent.Text : "";
			return true; /* not printed */
		}
		return false;
	}
};

/* A log line on one line: control characters become spaces. */
std::string oneline(const std::string &s)
{
	std::string o = s;
	for (char &c : o)
		if ((unsigned char)c < 32)
			c = ' ';
	return o;
}

uint64_t fnv(uint64_t h, uint32_t v)
{
	for (int i = 0; i < 4; i++) {
		h ^= (v >> (8 * i)) & 0xffu;
		h *= 1099511628211ull;
	}
	return h;
}

/* What values() accumulates: non-finite floats and the hash. */
struct Values {
	u32 nonfinite = 0, dupweights = 0, negkeys = 0;
	uint64_t hash = 1469598103934665603ull;
	void add(float f)
	{
		char buf[32];
		if (!std::isfinite(f))
			nonfinite++;
		int n = std::snprintf(buf, sizeof buf, "%.6g", (double)f);
		for (int i = 0; i < n; i++) {
			hash ^= (unsigned char)buf[i];
			hash *= 1099511628211ull;
		}
		hash ^= ' ';
		hash *= 1099511628211ull;
	}
	void add(const core::vector3df &v)
	{
		add(v.X);
		add(v.Y);
		add(v.Z);
	}
};

/* The values line: texture coordinates, normals and positions are counted
 * when not finite; texture coordinates, joint matrices and keys also enter
 * the hash (positions and normals are judged by the pose and counts). */
void values(scene::IAnimatedMesh *am)
{
	Values v;
	for (u32 b = 0; b < am->getMeshBufferCount(); b++) {
		scene::IMeshBuffer *mb = am->getMeshBuffer(b);
		for (u32 l = 0; l < video::MATERIAL_MAX_TEXTURES; l++)
			for (u32 k = 0; k < 16; k++)
				v.nonfinite += !std::isfinite(mb->getMaterial().getTextureMatrix(l)[k]);
		for (u32 i = 0; i < mb->getVertexCount(); i++) {
			const core::vector3df &p = mb->getPosition(i), &n = mb->getNormal(i);
			v.nonfinite += !std::isfinite(p.X) + !std::isfinite(p.Y) + !std::isfinite(p.Z);
			v.nonfinite += !std::isfinite(n.X) + !std::isfinite(n.Y) + !std::isfinite(n.Z);
			v.add(mb->getTCoords(i).X);
			v.add(mb->getTCoords(i).Y);
			if (mb->getVertexType() == video::EVT_2TCOORDS) {
				const video::S3DVertex2TCoords *t =
					static_cast<const video::S3DVertex2TCoords *>(mb->getVertices()) + i;
				v.add(t->TCoords2.X);
				v.add(t->TCoords2.Y);
			}
		}
	}
	if (am->getMeshType() == scene::EAMT_SKINNED) {
		core::array<scene::ISkinnedMesh::SJoint *> &js =
			static_cast<scene::ISkinnedMesh *>(am)->getAllJoints();
		for (u32 j = 0; j < js.size(); j++) {
			for (u32 k = 0; k < 16; k++)
				v.add(js[j]->LocalMatrix[k]);
			for (u32 k = 0; k < js[j]->PositionKeys.size(); k++) {
				v.add(js[j]->PositionKeys[k].frame);
				v.add(js[j]->PositionKeys[k].position);
			}
			for (u32 k = 0; k < js[j]->ScaleKeys.size(); k++) {
				v.add(js[j]->ScaleKeys[k].frame);
				v.add(js[j]->ScaleKeys[k].scale);
			}
			for (u32 k = 0; k < js[j]->RotationKeys.size(); k++) {
				const core::quaternion &q = js[j]->RotationKeys[k].rotation;
				v.add(js[j]->RotationKeys[k].frame);
				v.add(q.X);
				v.add(q.Y);
				v.add(q.Z);
				v.add(q.W);
			}
			std::vector<uint64_t> bound;
			for (u32 k = 0; k < js[j]->Weights.size(); k++) {
				const scene::ISkinnedMesh::SWeight &w = js[j]->Weights[k];
				v.add(w.strength);
				bound.push_back((uint64_t)w.buffer_id << 32 | w.vertex_id);
			}
			std::sort(bound.begin(), bound.end());
			for (size_t k = 1; k < bound.size(); k++)
				v.dupweights += bound[k] == bound[k - 1];
			for (u32 k = 0; k < js[j]->PositionKeys.size(); k++)
				v.negkeys += js[j]->PositionKeys[k].frame < 0;
			for (u32 k = 0; k < js[j]->ScaleKeys.size(); k++)
				v.negkeys += js[j]->ScaleKeys[k].frame < 0;
			for (u32 k = 0; k < js[j]->RotationKeys.size(); k++)
				v.negkeys += js[j]->RotationKeys[k].frame < 0;
		}
	}
	std::printf("values %u %016llx %u %u\n", v.nonfinite, (unsigned long long)v.hash, v.dupweights, v.negkeys);
}

void dump(scene::ISkinnedMesh *sk, const char *dir, unsigned index)
{
	u32 frames = sk->getFrameCount();
	std::vector<float> all;
	std::vector<u32> chosen;
	for (u32 k = 0; k <= 5; k++) {
		u32 f = frames > 1 ? (frames - 1) * k / 5 : 0;
		if (chosen.empty() || chosen.back() != f)
			chosen.push_back(f);
	}
	for (u32 f : chosen) {
		scene::IMesh *m = sk->getMesh((s32)f);
		double sum[3] = { 0, 0, 0 };
		for (u32 b = 0; m && b < m->getMeshBufferCount(); b++) {
			scene::IMeshBuffer *mb = m->getMeshBuffer(b);
			for (u32 v = 0; v < mb->getVertexCount(); v++) {
				const core::vector3df &p = mb->getPosition(v);
				sum[0] += p.X;
				sum[1] += p.Y;
				sum[2] += p.Z;
				if (dir) {
					all.push_back(p.X);
					all.push_back(p.Y);
					all.push_back(p.Z);
				}
			}
		}
		std::printf("pose %u %.6g %.6g %.6g\n", f, sum[0], sum[1], sum[2]);
	}
	if (dir) {
		std::string path = std::string(dir) + "/" + std::to_string(index) + ".pose";
		FILE *fp = std::fopen(path.c_str(), "wb");
		if (fp) {
			std::fwrite(all.data(), sizeof(float), all.size(), fp);
			std::fclose(fp);
		}
	}
}

void report(scene::IAnimatedMesh *am, const char *dir, unsigned index)
{
	u32 buffers = am->getMeshBufferCount(), verts = 0, tris = 0, zero = 0;
	for (u32 b = 0; b < buffers; b++) {
		scene::IMeshBuffer *mb = am->getMeshBuffer(b);
		verts += mb->getVertexCount();
		tris += mb->getIndexCount() / 3;
		for (u32 v = 0; v < mb->getVertexCount(); v++)
			zero += mb->getNormal(v).getLength() <= 1e-6f;
	}
	std::printf("mesh %u %u %u %u %u\n", buffers, verts, tris, am->getFrameCount(), zero);
	values(am);
	if (am->getMeshType() != scene::EAMT_SKINNED) {
		std::printf("joints 0 0 0 0\n");
		return;
	}
	scene::ISkinnedMesh *sk = static_cast<scene::ISkinnedMesh *>(am);
	core::array<scene::ISkinnedMesh::SJoint *> &js = sk->getAllJoints();
	u32 weights = 0, keys = 0;
	double wsum = 0;
	for (u32 j = 0; j < js.size(); j++) {
		weights += js[j]->Weights.size();
		for (u32 i = 0; i < js[j]->Weights.size(); i++)
			wsum += js[j]->Weights[i].strength;
		keys += js[j]->PositionKeys.size() + js[j]->ScaleKeys.size() + js[j]->RotationKeys.size();
	}
	std::printf("joints %u %u %u %.6g\n", js.size(), weights, keys, wsum);
	for (u32 j = 0; j < js.size(); j++) {
		const core::array<scene::ISkinnedMesh::SWeight> &w = js[j]->Weights;
		if (!w.size())
			continue;
		std::vector<uint64_t> bound;
		for (u32 i = 0; i < w.size(); i++)
			bound.push_back((uint64_t)w[i].buffer_id << 32 | w[i].vertex_id);
		std::sort(bound.begin(), bound.end());
		uint64_t h = 1469598103934665603ull;
		for (uint64_t b : bound)
			h = fnv(fnv(h, (uint32_t)(b >> 32)), (uint32_t)b);
		std::printf("bone %u %s %u %016llx\n", j, oneline(js[j]->Name.c_str()).c_str(), w.size(),
			    (unsigned long long)h);
	}
	if (!counts_only())
		dump(sk, dir, index);
}

} // namespace

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : nullptr;
	/* the number of the first file: compare.py restarts the oracle after
	 * a crash with the files that follow, and N.pose keeps counting */
	unsigned first = argc > 2 ? (unsigned)std::strtoul(argv[2], nullptr, 10) : 0;
	LogKeeper log;
	SIrrlichtCreationParameters p;
	p.DriverType = video::EDT_NULL;
	p.DeviceType = EIDT_CONSOLE;
	p.EventReceiver = &log;
	IrrlichtDevice *dev = createDeviceEx(p);
	if (!dev) {
		std::fprintf(stderr, "irr_oracle: no Irrlicht device (null driver)\n");
		return 2;
	}
	dev->getLogger()->setLogLevel(ELL_INFORMATION);
	scene::ISceneManager *smgr = dev->getSceneManager();
	std::printf("\n"); /* after what the console device writes */
	char line[4096];
	const unsigned watchdog = watchdog_seconds();
	for (unsigned index = first; std::fgets(line, sizeof line, stdin); index++) {
		line[std::strcspn(line, "\r\n")] = 0;
		std::printf("file %s\n", line);
		std::fflush(stdout); /* a crash names its file */
		log.last.clear();
		alarm(watchdog); /* a loader that hangs ends the process */
		scene::IAnimatedMesh *am = smgr->getMesh(line);
		if (!am)
			std::printf("refused %s\n", oneline(log.last).c_str());
		else {
			report(am, dir, index);
			smgr->getMeshCache()->removeMesh(am);
		}
		/* textures a model names are not kept from file to file */
		dev->getVideoDriver()->removeAllTextures();
		alarm(0);
		std::printf("end\n");
		std::fflush(stdout);
	}
	dev->drop();
	return 0;
}
