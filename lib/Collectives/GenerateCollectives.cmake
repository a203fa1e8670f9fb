#===- GenerateCollectives.cmake - join the collective library -----------===#
#
# cmake -DSRC=<lib/Collectives> -DOUT=<file> "-DSOURCES=a.bsgp;b.bsgp"
#       -P GenerateCollectives.cmake
#
# The library is plain BSGP with generic functions (lib/Collectives/*.bsgp),
# joined in the order of SOURCES. The radix sorts and the sort helpers of
# each key type are still written once with @...@ fields and expanded here
# per type (radix-*.bsgp.in, typed.bsgp.in): they follow the plain files.
#
#===----------------------------------------------------------------------===#

# BSGP type, list primitive suffix, the suffix of the radix sort of its
# width, and how that sort orders its bits (0 unsigned, 1 two's complement,
# 2 IEEE float).
set(types
  int:i32:u32:1 uint:u32:u32:0 float:f32:u32:2
  int64:i64:u64:1 uint64:u64:u64:0 double:f64:u64:2)
# The radix sorts: unsigned type, suffix, bits, pairs per work group's tile
# (the local arrays of a tile of 2048 64-bit keys take 43 KiB of 48).
set(radix_sorts uint:u32:32:4096 uint64:u64:64:2048)

set(main "")
foreach(source IN LISTS SOURCES)
  file(READ "${SRC}/${source}" text)
  string(APPEND main "${text}\n")
endforeach()

file(READ "${SRC}/typed.bsgp.in" typed)
file(READ "${SRC}/radix-sort.bsgp.in" radix_sort)
file(READ "${SRC}/radix-sort-cuda.bsgp.in" radix_sort_cuda)
file(READ "${SRC}/radix-helpers.bsgp.in" radix_helpers)

set(sorts "")
set(body "")
# A radix sort template with the key type's fields (utype, usuffix, bits)
# and a tile of `tile` pairs.
function(expand_radix out text tile)
  math(EXPR items "${tile} / 256")
  math(EXPR passes "${bits} / 8")
  math(EXPR hist "${passes} * 256")
  foreach(pair "U;${utype}" "US;${usuffix}" "BITS;${bits}" "TILE;${tile}"
               "ITEMS;${items}" "PASSES;${passes}" "HIST;${hist}")
    list(GET pair 0 key)
    list(GET pair 1 value)
    string(REPLACE "@${key}@" "${value}" text "${text}")
  endforeach()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

foreach(entry IN LISTS radix_sorts)
  string(REPLACE ":" ";" fields "${entry}")
  list(GET fields 0 utype)
  list(GET fields 1 usuffix)
  list(GET fields 2 bits)
  list(GET fields 3 tile)
  expand_radix(part "${radix_helpers}" ${tile})
  string(APPEND sorts "${part}")
  # The SPIR-V copy and the CUDA sort first (the main copy calls them), the
  # SPIR-V copy with tiles of 1024 pairs.
  expand_radix(part "${radix_sort_cuda}" ${tile})
  set(cuda_sort "${part}")
  foreach(copy spirv cuda main)
    if(copy STREQUAL "cuda")
      string(APPEND sorts "${cuda_sort}")
      continue()
    endif()
    if(copy STREQUAL "spirv")
      set(rs "${usuffix}_spirv")
      set(copy_tile 1024)
      set(only "target.spirv")
      set(skip "false")
      set(entry "  if (!target.spirv)\n    return 0;\n")
    else()
      set(rs "${usuffix}")
      set(copy_tile "${tile}")
      set(only "target.cpu")
      set(skip "true")
      set(entry "  if (target.spirv)\n    return __bsgp_radix_sort_${usuffix}_spirv(input, keys, values, spareKeys, spareValues, n, mode, identity);\n  if (target.cuda)\n    return __bsgp_radix_sort_${usuffix}_cuda(input, keys, values, spareKeys, spareValues, n, mode, identity);\n")
    endif()
    string(REPLACE "@ENTRY@\n" "${entry}" part "${radix_sort}")
    string(REPLACE "@ONLY@" "${only}" part "${part}")
    string(REPLACE "@SKIP@" "${skip}" part "${part}")
    string(REPLACE "@RS@" "${rs}" part "${part}")
    expand_radix(part "${part}" ${copy_tile})
    string(APPEND sorts "${part}")
  endforeach()
endforeach()
foreach(entry IN LISTS types)
  string(REPLACE ":" ";" fields "${entry}")
  list(GET fields 0 type)
  list(GET fields 1 suffix)
  list(GET fields 2 sort_suffix)
  list(GET fields 3 sort_mode)
  if(sort_suffix STREQUAL "u32")
    set(sort_type uint)
  else()
    set(sort_type uint64)
  endif()
  string(REPLACE "@US@" "${sort_suffix}" part "${typed}")
  string(REPLACE "@U@" "${sort_type}" part "${part}")
  string(REPLACE "@MODE@" "${sort_mode}" part "${part}")
  string(REPLACE "@T@" "${type}" part "${part}")
  string(REPLACE "@S@" "${suffix}" part "${part}")
  string(APPEND body "${part}")
endforeach()

string(APPEND main "${sorts}\n${body}")
file(WRITE "${OUT}.tmp" "${main}")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUT}.tmp")
