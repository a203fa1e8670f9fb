#===- GenerateCollectives.cmake - expand the collective library ----------===#
#
# cmake -DSRC=<lib/Collectives> -DOUT=<file> -P GenerateCollectives.cmake
#
# BSGP has no templates, so each typed part of the library is written once
# with @T@ (the BSGP type), @S@ (the list primitive suffix), @OP@ (the
# operator as MLIRGen mangles it), @SYM@ (the operator as reduce(op, x) is
# written), and @COMBINE@ (the operator applied to a and b, as the cpu
# backend's list primitives apply it) and expanded here for every type.
#
#===----------------------------------------------------------------------===#

# BSGP type, list primitive suffix, whether a 2-vector of it exists, the
# suffix of the radix sort of its width, and how that sort orders its bits
# (0 unsigned, 1 two's complement, 2 IEEE float).
set(types
  int:i32:1:u32:1 uint:u32:1:u32:0 float:f32:1:u32:2
  int64:i64:0:u64:1 uint64:u64:0:u64:0 double:f64:0:u64:2)
# The radix sorts: unsigned type, suffix, bits, pairs per work group's tile
# (the local arrays of a tile of 2048 64-bit keys take 43 KiB of 48).
set(radix_sorts uint:u32:32:4096 uint64:u64:64:2048)
set(arith_ops add mul min max)
set(bit_ops and or xor)
set(combine_add "a + b")
set(combine_mul "a * b")
set(combine_min "b < a ? b : a")
set(combine_max "a < b ? b : a")
set(combine_and "a & b")
set(combine_or "a | b")
set(combine_xor "a ^ b")
set(sym_add "+")
set(sym_mul "*")
set(sym_min "min")
set(sym_max "max")
set(sym_and "&")
set(sym_or "|")
set(sym_xor "^")

# The first level of __bsgp_group_reduce: within each subgroup, the
# subgroup reduction where BSGP has one (32-bit integers; add, min, max,
# and, or, xor), which is one instruction on CUDA (redux.sync) and Vulkan,
# and shuffles down otherwise.
set(first_level_subgroup [=[
  v = subgroup.@OP@(x);
]=])
set(first_level_shuffle [=[
  for (int d = s / 2; d >= 1; d = d / 2) {
    @T@ y = subgroup.shuffle_down(v, d);
    if (lane + d < inSub)
      v = __bsgp_combine_@OP@_@T@(v, y);
  }
]=])

file(READ "${SRC}/collectives.bsgp.in" main)
file(READ "${SRC}/extern-op.bsgp.in" extern_op)
file(READ "${SRC}/reduce-scan.bsgp.in" reduce)
file(READ "${SRC}/scan-vector.bsgp.in" scan_vector)
file(READ "${SRC}/scan-scalar.bsgp.in" scan_scalar)
file(READ "${SRC}/typed.bsgp.in" typed)
file(READ "${SRC}/list-device.bsgp.in" list_device)
file(READ "${SRC}/radix-sort.bsgp.in" radix_sort)
file(READ "${SRC}/radix-sort-cuda.bsgp.in" radix_sort_cuda)
file(READ "${SRC}/radix-helpers.bsgp.in" radix_helpers)
file(READ "${SRC}/group-reduce.bsgp.in" group_reduce)
file(READ "${SRC}/group-scan.bsgp.in" group_scan)
file(READ "${SRC}/scan-group.bsgp.in" scan_group)
file(READ "${SRC}/scan-single-pass.bsgp.in" scan_single_pass)
file(READ "${SRC}/list-scan-group.bsgp.in" list_scan_group)

function(expand out text type suffix op)
  string(REPLACE "@T@" "${type}" text "${text}")
  string(REPLACE "@S@" "${suffix}" text "${text}")
  string(REPLACE "@OP@" "${op}" text "${text}")
  if(op)
    string(REPLACE "@COMBINE@" "${combine_${op}}" text "${text}")
    string(REPLACE "@SYM@" "${sym_${op}}" text "${text}")
  endif()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

set(externs "")
set(devices "")
set(body "")
set(sorts "")
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
  list(GET fields 2 has_vector)
  list(GET fields 3 sort_suffix)
  list(GET fields 4 sort_mode)
  set(ops ${arith_ops})
  if(NOT type MATCHES "float|double")
    list(APPEND ops ${bit_ops})
  endif()
  # 32-bit integers scan their work groups with shuffles on GPUs (their
  # 2-vectors carry a prefix with the group's total); the others go
  # through a list scan of every value.
  set(group_scan_types FALSE)
  if(type STREQUAL "int" OR type STREQUAL "uint")
    set(group_scan_types TRUE)
  endif()
  if(group_scan_types)
    set(scan "${scan_group}")
  elseif(has_vector)
    set(scan "${scan_vector}")
  else()
    set(scan "${scan_scalar}")
  endif()
  if(sort_suffix STREQUAL "u32")
    set(sort_type uint)
  else()
    set(sort_type uint64)
  endif()
  string(REPLACE "@US@" "${sort_suffix}" part "${typed}")
  string(REPLACE "@U@" "${sort_type}" part "${part}")
  string(REPLACE "@MODE@" "${sort_mode}" part "${part}")
  expand(part "${part}" ${type} ${suffix} "")
  string(APPEND body "${part}")
  foreach(op IN LISTS ops)
    expand(part "${extern_op}" ${type} ${suffix} ${op})
    string(APPEND externs "${part}")
    set(first "${first_level_shuffle}")
    if(group_scan_types AND NOT op STREQUAL "mul")
      set(first "${first_level_subgroup}")
    endif()
    string(REPLACE "@FIRST_LEVEL@" "${first}" reduce_op "${group_reduce}")
    # Short lists of 32-bit integers are scanned by one work group on GPUs
    # (list-scan-group.bsgp.in), which needs the group scan before it.
    if(group_scan_types)
      string(REPLACE "@SMALL_SCAN@"
        "  if (n <= 4096 && !target.cpu)\n    return __bsgp_list_scan_group_@OP@_@S@(in, out, n);\n"
        device_op "${list_device}")
      expand(part "${reduce_op}${group_scan}${list_scan_group}${device_op}"
        ${type} ${suffix} ${op})
    else()
      string(REPLACE "@SMALL_SCAN@" "" device_op "${list_device}")
      expand(part "${reduce_op}${device_op}" ${type} ${suffix} ${op})
    endif()
    string(APPEND devices "${part}")
    # The single-pass scan of 32-bit integers sums with the look-back's
    # 32-bit adds.
    set(single_pass "")
    if(group_scan_types AND op STREQUAL "add")
      set(single_pass "${scan_single_pass}")
    endif()
    expand(part "${reduce}${scan}${single_pass}" ${type} ${suffix} ${op})
    string(APPEND body "${part}")
  endforeach()
endforeach()

# The list primitives come first: every typed part may use the uint scan.
string(REPLACE "@BODY@" "${externs}${devices}${sorts}\n${body}" main "${main}")
# The parts written as generic functions (lib/Collectives/*.bsgp) are plain
# BSGP: they are appended as they are, with no substitution.
file(GLOB generic_sources "${SRC}/*.bsgp")
list(SORT generic_sources)
foreach(source IN LISTS generic_sources)
  file(READ "${source}" text)
  string(APPEND main "\n${text}")
endforeach()
file(WRITE "${OUT}.tmp" "${main}")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUT}.tmp")
