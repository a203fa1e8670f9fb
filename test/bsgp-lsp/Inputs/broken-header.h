// Included by definition-import.test: a use of an undeclared name.
int bad(int v) { return v + zz; }
