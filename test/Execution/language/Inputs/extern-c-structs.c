// C functions taking and returning structs by value, compiled by the host
// C compiler, called from extern-c-structs.bsgp: one struct per class of
// the x86-64 System V ABI (two floats in one SSE register, an int and a
// float in one integer register, a double and an int in two registers of
// two classes, 32 bytes in memory, 3 bytes, 12 bytes of floats).
#include <stdint.h>
struct F2 { float x, y; };
struct IF { int a; float b; };
struct D3 { double a; int b; };
struct Big { int64_t q[3]; float f; };
struct C3 { char c[3]; };
struct F3 { float x, y, z; };
struct F2 f2_scale(struct F2 v, float k) { struct F2 r = {v.x * k, v.y * k}; return r; }
float if_sum(struct IF s, int n) { return s.a * n + s.b; }
struct D3 d3_make(double a, int b) { struct D3 r = {a * 2, b + 1}; return r; }
double d3_get(struct D3 d) { return d.a + d.b; }
struct Big big_bump(struct Big b, int k) { for (int i = 0; i < 3; i++) b.q[i] += k * (i + 1); b.f *= 2; return b; }
int64_t big_sum(struct Big b) { return b.q[0] + b.q[1] + b.q[2] + (int64_t)b.f; }
struct C3 c3_rev(struct C3 c) { struct C3 r = {{c.c[2], c.c[1], c.c[0]}}; return r; }
struct F3 f3_cross(struct F3 a, struct F3 b) { struct F3 r = {a.y*b.z - a.z*b.y, a.z*b.x - a.x*b.z, a.x*b.y - a.y*b.x}; return r; }
