"""Makes DIR/bin a build whose bsgpc reports every error one line below
where the real one does (and whose bsgp-smith is the real one), so that
difftest.sh's check of planted errors can be seen to fail.

Usage: shifted-lines-build.py BSGP_OBJ_ROOT DIR
"""
import os
import stat
import sys

obj, out = sys.argv[1], sys.argv[2]
os.makedirs(os.path.join(out, "bin"), exist_ok=True)
os.symlink(os.path.join(obj, "bin", "bsgp-smith"),
           os.path.join(out, "bin", "bsgp-smith"))
wrapper = os.path.join(out, "bin", "bsgpc")
with open(wrapper, "w") as f:
    f.write(f"""#!/usr/bin/env python3
import re, subprocess, sys
p = subprocess.run([{os.path.join(obj, "bin", "bsgpc")!r}] + sys.argv[1:],
                   stderr=subprocess.PIPE, text=True)
sys.stderr.write(re.sub(r"^(prog\\.bsgp):(\\d+):",
                        lambda m: m.group(1) + ":" + str(int(m.group(2)) + 1) + ":",
                        p.stderr, flags=re.M))
sys.exit(p.returncode)
""")
os.chmod(wrapper, os.stat(wrapper).st_mode | stat.S_IXUSR)
