/* Calls the functions of c-calls-structs.bsgp as C code does. */
#include <stdio.h>

struct V2 {
  float x, y;
};
struct Mix {
  int id;
  double w;
};
struct Big {
  int a[5];
  float f;
};
struct S16 {
  short s;
  unsigned char c;
};

struct V2 v2_scale(struct V2 v, float k);
double mix_weight(struct Mix m, int times);
struct Mix mix_make(int id, double w);
struct Big big_bump(struct Big b, int d);
int s16_sum(struct S16 s);
float v2_spread(struct V2 v, int n);

int main(void) {
  struct V2 v = {1.5f, -2.0f};
  struct V2 r = v2_scale(v, 4.0f);
  struct Mix m = {3, 0.25};
  struct Mix made = mix_make(7, 2.5);
  struct Big b = {{1, 2, 3, 4, 5}, 1.5f};
  struct Big c = big_bump(b, 10);
  struct S16 s = {-300, 200};
  printf("%g %g %g %d %g\n", r.x, r.y, mix_weight(m, 5), made.id, made.w);
  printf("%d %d %d %d %d %g %d %d\n", c.a[0], c.a[1], c.a[2], c.a[3], c.a[4],
         c.f, b.a[1], s16_sum(s));
  printf("%g\n", v2_spread(v, 4));
  return 0;
}
