#===- per_backend.py - run each execution test once per backend ------------===#
#
# The test format of test/Execution (lit.local.cfg says how it is used). It
# lives in a module rather than in lit.local.cfg because lit sends tests to
# its worker processes with pickle, which must find the classes by name.
#
#===----------------------------------------------------------------------===#
import copy
import os

import lit.formats
import lit.Test

# The tests that also run on two vulkan devices (BSGP_DEVICE=vulkan:2, two
# lavapipe devices sharing host memory) as <test>.vulkan2: collectives,
# rank movement, atomics and device printf across devices. Not all of
# them, to keep CI time down (multi-device-vulkan.test runs reduce-scan
# and sort-keys on vulkan:2 and vulkan:3); BSGP_VULKAN2_TESTS=all in the
# environment of lit makes a copy of every test.
VULKAN2_TESTS = {
    "thread-manipulation.bsgp",
    "find-faces.bsgp",
    "par-scan.bsgp",
    "thread-get-forms.bsgp",
    "fork-double-save.bsgp",
    "par-sort-idx.bsgp",
    "large-lists.bsgp",
    "language/atomics.test",
    "language/device-printf.test",
    "language/struct-values-barrier.test",
}


def with_backend(cfg, device, targets, run, extra_feature=None):
    c = copy.copy(cfg)
    c.environment = dict(cfg.environment, BSGP_DEVICE=device)
    c.substitutions = [("%bsgp_targets", targets), ("%run", run)] + list(
        cfg.substitutions)
    c.available_features = set(cfg.available_features)
    if extra_feature:
        c.available_features.add(extra_feature)
    return c


class BackendCopy(lit.Test.Test):
    """The same test file run under another name and configuration."""

    def __init__(self, suite, path_in_suite, cfg, source, requires):
        super().__init__(suite, path_in_suite, cfg)
        self._source = source
        self.requires = list(requires)

    def getSourcePath(self):
        return self._source


class PerBackendShTest(lit.formats.ShTest):
    def __init__(self, execute_external, valgrind):
        super().__init__(execute_external)
        self.valgrind = valgrind

    def getTestsForPath(self, testSuite, path_in_suite, litConfig,
                        localConfig):
        cpu = with_backend(localConfig, "cpu", "--target=cpu",
                            ("env BSGP_DEVICE=cpu " + self.valgrind).strip())
        vulkan = with_backend(localConfig, "vulkan", "--target=cpu,spirv",
                               "env BSGP_DEVICE=vulkan", "vulkan-run")
        # Four cpu devices (docs/multi-device.md): every spawn is split into
        # four slices and every collective combines the devices' parts, and
        # the program must still compute what its checks expect.
        multi = with_backend(localConfig, "cpu:4", "--target=cpu",
                              "env BSGP_DEVICE=cpu:4", "multi-device-run")
        # Two vulkan devices: the features of both copies above, so that a
        # test kept off either is kept off this one.
        vulkan2 = with_backend(localConfig, "vulkan:2", "--target=cpu,spirv",
                                "env BSGP_DEVICE=vulkan:2", "vulkan-run")
        vulkan2.available_features.add("multi-device-run")
        every = os.environ.get("BSGP_VULKAN2_TESTS") == "all"
        for test in super().getTestsForPath(testSuite, path_in_suite,
                                            litConfig, localConfig):
            test.config = cpu
            yield test
            source = test.getSourcePath()
            with open(source, encoding="utf-8") as f:
                if "%run" not in f.read():
                    continue
            yield BackendCopy(testSuite,
                               path_in_suite[:-1] +
                               (path_in_suite[-1] + ".vulkan",),
                               vulkan, source, ["vulkan"])
            yield BackendCopy(testSuite,
                               path_in_suite[:-1] +
                               (path_in_suite[-1] + ".cpu4",),
                               multi, source, [])
            if every or "/".join(path_in_suite[1:]) in VULKAN2_TESTS:
                yield BackendCopy(testSuite,
                                   path_in_suite[:-1] +
                                   (path_in_suite[-1] + ".vulkan2",),
                                   vulkan2, source, ["vulkan"])


