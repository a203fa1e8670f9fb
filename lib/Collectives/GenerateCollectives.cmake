#===- GenerateCollectives.cmake - join the collective library -----------===#
#
# cmake -DSRC=<lib/Collectives> -DOUT=<file> "-DSOURCES=a.bsgp;b.bsgp"
#       -P GenerateCollectives.cmake
#
# The library is plain BSGP with generic functions (lib/Collectives/*.bsgp),
# joined as they are in the order of SOURCES into one file.
#
#===----------------------------------------------------------------------===#

set(main "")
foreach(source IN LISTS SOURCES)
  file(READ "${SRC}/${source}" text)
  string(APPEND main "${text}\n")
endforeach()
file(WRITE "${OUT}.tmp" "${main}")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUT}.tmp")
