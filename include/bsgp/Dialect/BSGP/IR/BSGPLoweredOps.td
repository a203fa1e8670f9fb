//===- BSGPLoweredOps.td - ops the passes produce ----------*- tablegen -*-===//
//
// What the §4 passes produce: supersteps, temporary streams, kernels and
// launches; and the target queries they resolve.
//
// Included by BSGPOps.td, after the includes and definitions these ops use.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_DIALECT_BSGP_IR_BSGPLOWEREDOPS_TD
#define BSGP_DIALECT_BSGP_IR_BSGPLOWEREDOPS_TD

//===----------------------------------------------------------------------===//
// Superstep form (§4.2 steps 3 and 5)
//===----------------------------------------------------------------------===//

def BSGP_SuperstepOp : BSGP_Op<"superstep", [
    RecursiveMemoryEffects, SingleBlockImplicitTerminator<"YieldOp">,
    HasParent<"SpawnOp">]> {
  let summary = "one superstep of a spawn, after barrier splitting (§4.2)";
  let description = [{
    §4.2 step 3 splits a spawn body at its barriers; each piece becomes a
    superstep and later a kernel. `index` numbers the supersteps of the
    spawn from 1 (as in the paper's tables); `source_begin`/`source_end` are
    the source range of the piece, which feeds the kernel-to-source log of
    §4.4. `rank_reassigned` marks a superstep that follows
    `barrier(RANK_REASSIGNED)`.

    A value used in a later superstep is a result of the superstep defining
    it, so the results are exactly the *saved values* of §4.2 step 5
    (Table 1). The stream passes then replace them by `bsgp.save` /
    `bsgp.load` pairs.

    ```mlir
    %f, %v = bsgp.superstep 1 -> (i32, i32) {
      ...
      bsgp.yield %f, %v : i32, i32
    }
    bsgp.superstep 2 rank_reassigned {
      ... uses %f, %v ...
    }
    ```
  }];
  let arguments = (ins ConfinedAttr<I32Attr, [IntMinValue<1>]>:$index,
                       UnitAttr:$rank_reassigned,
                       OptionalAttr<LocationAttr>:$source_begin,
                       OptionalAttr<LocationAttr>:$source_end);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $index (`rank_reassigned` $rank_reassigned^)?
    (`source` `(` $source_begin^ `,` $source_end `)`)?
    (`->` custom<ResultTypes>(type($results))^)? $body attr-dict
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Temporary streams (§4.1, §4.2 steps 6-7, §4.3)
//===----------------------------------------------------------------------===//

def BSGP_StreamAllocOp : BSGP_Op<"stream_alloc"> {
  let summary = "allocate a temporary stream (`__newstream`)";
  let description = [{
    Allocates a temporary stream of `size` 32-bit words, `size` being the
    thread count of the launches that use it (Listing 4). Host code only.
  }];
  let arguments = (ins I32:$size);
  let results = (outs Res<BSGP_StreamType, "", [MemAlloc]>:$stream);
  let assemblyFormat = "$size attr-dict `:` qualified(type($stream))";
  let hasVerifier = 1;
}

def BSGP_StreamFreeOp : BSGP_Op<"stream_free"> {
  let summary = "free a temporary stream (`__freestream`)";
  let arguments = (ins Arg<BSGP_StreamType, "", [MemFree]>:$stream);
  let assemblyFormat = "$stream attr-dict";
  let hasVerifier = 1;
}

def BSGP_SaveOp : BSGP_Op<"save"> {
  let summary = "save a value to temporary streams (`t0[thread.rank] = f`)";
  let description = [{
    Stores `value` at word `index` of the streams, one stream per 32-bit word
    of the value: one for `i1`, `i8`, `i16`, `i32`, `f16`, `f32`; two for
    `i64`, `f64` and pointers (low word first); `n * w` for a vector of `n`
    elements of `w` words each. Values narrower than a word are widened.
    One stream per word keeps every stream the same shape, which is what the
    minimum flow of §4.3 needs to share streams among values of any type.
    Device code only.

    ```mlir
    bsgp.save %v to (%s0, %s1, %s2, %s3)[%rk] : vector<4xf32>
    ```
  }];
  let arguments = (ins AnyType:$value,
                       Arg<Variadic<BSGP_StreamType>, "", [MemWrite]>:$streams,
                       I32:$index);
  let assemblyFormat = [{
    $value `to` ` ` `(` $streams `)` `` `[` $index `]` attr-dict `:`
    type($value)
  }];
  let extraClassDeclaration = [{
    /// True for a single 32-bit word, the only save code generation
    /// lowers: bsgp-split-saved-words has made every save one.
    bool isWord() { return getValue().getType().isInteger(32); }
  }];
  let hasVerifier = 1;
}

def BSGP_LoadOp : BSGP_Op<"load"> {
  let summary = "load a saved value from temporary streams (`f = t0[rank]`)";
  let description = [{
    The inverse of `bsgp.save`: reads word `index` of each stream and
    reassembles a value of the result type. After a rank-reassigning barrier
    the index is the operand of `bsgp.set_oldrank` (Listing 4, pass2).
    Device code only.
  }];
  let arguments = (ins Arg<Variadic<BSGP_StreamType>, "", [MemRead]>:$streams,
                       I32:$index);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    ` ` `(` $streams `)` `` `[` $index `]` attr-dict `:` type($result)
  }];
  let extraClassDeclaration = [{
    /// True for a single 32-bit word (see `bsgp.save`).
    bool isWord() { return getType().isInteger(32); }
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Kernels and launches (§4.2 steps 3-4)
//===----------------------------------------------------------------------===//

def BSGP_KernelOp : BSGP_Op<"kernel", [
    AutomaticAllocationScope, FunctionOpInterface, IsolatedFromAbove]> {
  let summary = "a superstep outlined as a kernel (a pass)";
  let description = [{
    The kernel of one superstep (§4.2 step 3; `kernel pass1(...)` in
    Listing 4). Every host value the superstep used is an argument (step 4),
    so the body is isolated from above. The body is device code; it ends
    with `bsgp.return` and has no results. The optional `superstep`
    attribute is the index of the superstep it came from.

    ```mlir
    bsgp.kernel @pass1(%ib: !bsgp.ptr<i32>, %t0: !bsgp.stream) {
      ...
      bsgp.return
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       OptionalAttr<StrAttr>:$sym_visibility,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let regions = (region AnyRegion:$body);
  let extraClassDeclaration = [{
    ::mlir::Region *getCallableRegion() {
      return getBody().empty() ? nullptr : &getBody();
    }
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() {
      return getFunctionType().getInputs();
    }
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() {
      return getFunctionType().getResults();
    }
  }];
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def BSGP_ReturnOp : BSGP_Op<"return", [
    Pure, ReturnLike, Terminator, HasParent<"KernelOp">]> {
  let summary = "end of a kernel";
  let assemblyFormat = "attr-dict";
}

def BSGP_LaunchOp : BSGP_Op<"launch", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "launch a kernel on a number of threads (`launch(n, k(...))`)";
  let description = [{
    Host code that runs `kernel` on `threadCount` threads with `args` as its
    parameters (Listing 4: `launch (thread.size, pass1(ib, sorted_id, t0,
    t1))`). Returning from the launch is the barrier. The verifier checks
    that the callee is a `bsgp.kernel` and that the argument types match
    its signature.

    ```mlir
    bsgp.launch @pass1(%size) args(%ib, %t0 : !bsgp.ptr<i32>, !bsgp.stream)
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$kernel, I32:$threadCount,
                       Variadic<AnyType>:$args);
  let assemblyFormat = [{
    $kernel `(` $threadCount `)` (`args` `(` $args^ `:` type($args) `)`)?
    attr-dict
  }];
  let hasVerifier = 1;
}

def BSGP_GridLaunchOp : BSGP_Op<"grid_launch", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "a launch inside a kernel that is a whole uniform loop";
  let description = [{
    In a `bsgp.kernel` marked `bsgp.grid_loop` (bsgp-fuse-uniform-loops):
    the kernel's threads together run `kernel` on ranks [0, `threadCount`),
    each thread taking the ranks a grid stride apart, and then wait for each
    other at a grid-wide barrier, which is the barrier ending the superstep.
    It is what a host `bsgp.launch` of the same kernel does, without a
    launch.

    ```mlir
    bsgp.grid_launch @loop_spawn1_ss1(%n) args(%x, %n, %y : !bsgp.ptr<f32>, i32, !bsgp.ptr<f32>)
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$kernel, I32:$threadCount,
                       Variadic<AnyType>:$args);
  let assemblyFormat = [{
    $kernel `(` $threadCount `)` (`args` `(` $args^ `:` type($args) `)`)?
    attr-dict
  }];
  let hasVerifier = 1;
}

def BSGP_CanLaunchGridLoopOp : BSGP_Op<"can_launch_grid_loop", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>,
    MemoryEffects<[MemRead]>]> {
  let summary = "whether the backend runs a grid-loop kernel in one launch";
  let description = [{
    Host code: true when the backend in use can launch `kernel`, a kernel
    marked `bsgp.grid_loop`, for `threadCount` threads with all its thread
    blocks resident at once (a cooperative launch on CUDA). Where it is
    false, the host runs the loop the kernel was made from, one launch per
    superstep (bsgp-fuse-uniform-loops).

    ```mlir
    %ok = bsgp.can_launch_grid_loop @loop_grid0(%n)
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$kernel, I32:$threadCount);
  let results = (outs I1:$result);
  let assemblyFormat = "$kernel `(` $threadCount `)` attr-dict";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Target queries and atomics
//===----------------------------------------------------------------------===//

def BSGP_TargetIsOp : BSGP_Op<"target_is", [Pure]> {
  let summary = "`target.cpu`, `target.cuda`, `target.spirv`";
  let description = [{
    True when the code runs on `target` (`"cpu"`, `"cuda"` or `"spirv"`).
    In device code each target's kernel lowering replaces it by its constant
    before anything else and removes the branches that become dead, so code
    under `if (!target.spirv)` never reaches the SPIR-V conversion. In host
    code `bsgp-resolve-target-queries` replaces it by a constant when the
    object has one target, or by a comparison of `bsgprt_target()` with the
    target's number in a fat object.

    ```mlir
    %on_cpu = bsgp.target_is "cpu" : i1
    ```
  }];
  let arguments = (ins StrAttr:$target);
  let extraClassDeclaration = [{
    /// The target named, which the verifier has checked.
    ::bsgp::Target getTargetKind() {
      return *::bsgp::parseTargetName(getTarget());
    }
  }];
  let results = (outs I1:$result);
  let assemblyFormat = "$target attr-dict `:` type($result)";
  let hasVerifier = 1;
}

#endif // BSGP_DIALECT_BSGP_IR_BSGPLOWEREDOPS_TD
