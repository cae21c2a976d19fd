# lit configuration for sampler. Tests live beside the part they specify:
#   test/schemes/*.ll      IR each scheme produces (opt + the LLVM-only plugin)
#   test/sampling/*.ll     the sampling transformation
#   test/plugin/*.c        the clang front-end plugin and -fpass-plugin
#   test/tools/*.test      sampler-sites / sampler-report / sampler-cc
#   test/e2e/*.c           compile with sampler-cc, run, decode the report
import os
import platform
import lit.formats

config.name = "sampler"
# Always the external shell (bash): RUN lines use $(...) and $?, which lit's
# internal shell lacks (it was tied to -q by mistake: `lit -q` failed tests).
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".ll", ".c", ".cpp", ".test"]
config.excludes = ["Inputs", "runtime", "real", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py.in"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.sampler_obj_root, "test")

# LLVM 19's FileCheck, not, count, opt first on PATH; never the unversioned LLVM 14 tools.
config.environment["PATH"] = os.pathsep.join(
    [config.sampler_bin_dir, config.llvm_tools_dir, config.environment.get("PATH", os.environ["PATH"])])
# Tests decide where reports go; never inherit the developer's settings.
for var in list(os.environ):
    if var.startswith("SAMPLER_"):
        config.environment.pop(var, None)

opt = os.path.join(config.llvm_tools_dir, "opt")
config.substitutions += [
    ("%opt-sampler", "%s -load-pass-plugin=%s" % (opt, config.sampler_plugin_llvm)),
    ("%plugin-llvm", config.sampler_plugin_llvm),
    ("%plugin", config.sampler_plugin),
    ("%clangxx", config.sampler_clangxx),
    ("%clang", config.sampler_clang),
    ("%sampler-cc", os.path.join(config.sampler_bin_dir, "sampler-cc")),
    ("%sampler-c\\+\\+", os.path.join(config.sampler_bin_dir, "sampler-c++")),
    ("%sampler-sites", os.path.join(config.sampler_bin_dir, "sampler-sites")),
    ("%sampler-report", os.path.join(config.sampler_bin_dir, "sampler-report")),
    ("%rtlib", config.sampler_lib_dir),
    ("%srcroot", config.sampler_src_root),
]

# Slow tests that fetch and build real programs run only when asked: lit --param real=1.
if lit_config.params.get("real", "0") == "1":
    config.available_features.add("real-programs")

# Tests of x86-64 code generation through sampler-cc (which compiles for the host).
if platform.machine() == "x86_64":
    config.available_features.add("x86_64")
