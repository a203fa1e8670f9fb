// A comment line: not code.

/* A block comment
   over three lines,
   not code. */
int a = 1; // code with a comment
/* before */ int b = 2;
const char *s = "// not a comment";
char c = '/'; /* a block that
ends here */ int d = 4;
    
  // indented comment
}
