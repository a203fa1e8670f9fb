int g(int x) { return x; }
