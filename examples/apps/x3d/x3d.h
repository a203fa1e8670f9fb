//===- x3d.h - the X3D parser's BSGP functions and shared types -----------===//
//
// Part of bsgpc, the BSGP compiler.
//
// What x3d.bsgp exports for the host code, and the scene both parsers
// produce (the BSGP one on the device, the pugixml one on the host).
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_EXAMPLES_X3D_H
#define BSGP_EXAMPLES_X3D_H

#include <cstdint>
#include <string>
#include <vector>

extern "C" {
void x3dClassify(char *text, int n, char *cls, int64_t *err);
int *x3dPositions(char *cls, int n, int bit, int *count);
void x3dTags(char *text, int n, int *ts, int *te, int T, int *kind, int *elem,
             int *hash, int *level, int64_t *err);
void x3dMatch(int *ts, int T, int *kind, int *hash, int *level, int *sorted,
              int *first, int *last, int64_t *err);
void x3dParents(int T, int *kind, int *level, int *sorted, int *first,
                int *last, int *parent);
void x3dAttrs(char *text, int *op, int A, int *ts, int *te, int T, int *elem,
              int *akind, int *atag, int *tagX);
void x3dTokens(char *text, char *cls, int n, int *op, int A, int *akind,
               int *count, int **lists, int64_t *err);
void x3dAttrRanges(int *tokAttr, int K, int A, int *first, int *count);
int *x3dShapes(int *kind, int *elem, int T, int *tagShape, int *count);
void x3dShapeFields(int A, int *akind, int *atag, int *parent, int *elem,
                    int *tagShape, int *fields, int *attrShape);
void x3dShapeSetup(int S, int *shapeTag, int *parent, int *elem, int *tagX,
                   int *op, int *akind, int *fields, int *first, int *count,
                   float *nums, float *mat, int *nv, int *vbase, int *totalOut,
                   int64_t *err);
void x3dTriangles(int K, int *tokAttr, int *tokInt, int *tokPos, int *op,
                  int *akind, int *attrShape, int *fields, int *first,
                  int *count, int *nv, int *vbase, int *ntri, int **lists,
                  int64_t *err);
void x3dFindFaces(int *idx, int nt, int *pc, int *hd, int *tl);
void x3dVertices(int V, int S, int *vbase, int *fields, int *first, int *count,
                 float *nums, int *tokInt, float *mat, int *hd, int *pc,
                 int *triTok, float *pos, float *nrm, float *tex);
void x3dNormals(int V, int S, int *vbase, int *fields, float *pos, int *idx,
                int *hd, int *tl, int *pc, float *nrm);
void x3dMaterials(int S, int *fields, int *first, float *nums, float *color,
                  int *triShape, int nt, int *triFirst, int *triCount);
}

namespace x3d {

/// Attribute kinds, as x3d.bsgp numbers them.
enum Kind {
  KTranslation = 1,
  KRotation,
  KScale,
  KCoordIndex,
  KNormalIndex,
  KTexCoordIndex,
  KIndex,
  KPoint,
  KVector,
  KTexPoint,
  KDiffuse,
  KTransparency
};

inline bool isIndexKind(int K) { return K >= KCoordIndex && K <= KIndex; }

/// A parsed scene on the host: all shapes' vertices in one list, shape
/// after shape, and their triangles (indices into that list).
struct Scene {
  std::vector<float> Pos, Nrm, Tex;          // 3, 3, 2 per vertex
  std::vector<int> Idx;                      // 3 per triangle
  std::vector<int> TriShape;                 // per triangle
  std::vector<int> VertexFirst, VertexCount; // per shape
  std::vector<int> TriFirst, TriCount;       // per shape
  std::vector<float> Color; // diffuse RGB, transparency per shape
  /// The numbers of every attribute the parsers read, in document order.
  std::vector<float> Floats;
  std::vector<int> Ints;
};

/// A parse error: a byte offset into the text and what is wrong.
struct Error {
  bool Failed = false;
  int64_t Offset = 0;
  std::string What;
};

/// The scene on the device, as x3d.bsgp leaves it: lists ready to render.
struct DeviceScene {
  int Shapes = 0, Vertices = 0, Triangles = 0, Numbers = 0;
  float *Pos = nullptr, *Nrm = nullptr, *Tex = nullptr, *Color = nullptr;
  int *Idx = nullptr, *TriShape = nullptr, *VertexFirst = nullptr,
      *VertexCount = nullptr, *TriFirst = nullptr, *TriCount = nullptr;
  int *TokAttr = nullptr, *TokInt = nullptr, *AttrKind = nullptr;
  float *TokFloat = nullptr;
  int Attrs = 0;
  std::vector<void *> Owned; ///< every list, freed by release()
};

/// Parses `Text` on the device (text upload included).
Error parseDevice(const std::string &Text, DeviceScene &Out);
/// Parses the `N` characters of device list `DText`.
Error parseUploaded(char *DText, int N, DeviceScene &Out);
/// Copies a device scene back (for checks and files only).
Scene download(const DeviceScene &D);
void release(DeviceScene &D);
/// The pugixml parser with std::from_chars.
Error parseHost(const std::string &Text, Scene &Out);
bool hostParserAvailable();
/// A W x H picture of the scene (render.cpp); false without stb.
bool writePng(const std::string &Path, const Scene &S, int W, int H);
/// Writes about `Bytes` of X3D text with many shapes.
std::string generate(size_t Bytes, unsigned Seed);

} // namespace x3d

#endif // BSGP_EXAMPLES_X3D_H
