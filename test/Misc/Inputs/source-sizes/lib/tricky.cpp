// Braces in comments, literals and directives must not count: { { {
/* } } } */
#define OPEN {
#include <string>

namespace outer {
namespace {

// A namespace-scope initializer is no function, however long.
const int Table[] = {
    1, 2, 3,
    4, 5, 6,
    7, 8, 9,
    10, 11, 12,
    13, 14, 15,
    16, 17, 18,
};

} // namespace

// Exactly at the limit (10 lines, braces included): not reported.
int atLimit(int x) {
  std::string a = "}}}}";
  char c = '}';
  char d = '\'';
  const char *r = R"x( } " } )x";
  int big = 1'000'000;
  /* } */ // }
  x += a.size() + c + d + big + (r != nullptr);
  return x;
}

// One line over: reported, with its qualified name.
struct Widget {
  int over(int x) {
    auto lambda = [](int y) {
      return y + 1;
    };
    x = lambda(x);
    x = lambda(x);
    x = lambda(x);
    x = lambda(x);
    x = lambda(x);
    return x;
  }
};

} // namespace outer
