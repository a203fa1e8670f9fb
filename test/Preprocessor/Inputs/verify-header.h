// Included by verify.bsgp: the error below is expected there, with
// @verify-header.h:4.
int from_header() {
  return nowhere;
}
