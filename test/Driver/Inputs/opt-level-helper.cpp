// A C++ input for cxx-opt-level.test: one function, no main.
int cxxOptLevelHelper(int x) { return x + 1; }
