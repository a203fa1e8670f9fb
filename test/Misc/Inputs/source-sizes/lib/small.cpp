int allowed(int x) {
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  return x;
}
