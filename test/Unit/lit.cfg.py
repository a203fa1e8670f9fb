# -*- Python -*-
# GoogleTest unit tests (unittests/) run through lit, one lit test per TEST().
import os

import lit.formats

config.name = "BSGP-Unit"
config.suffixes = []
config.test_source_root = config.unittests_dir
config.test_exec_root = config.unittests_dir
config.test_format = lit.formats.GoogleTest(".", "Tests")
