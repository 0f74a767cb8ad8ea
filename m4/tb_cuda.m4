# TB_CHECK_CUDA
# -------------
# --with-cuda[=DIR]   use the CUDA toolkit (in DIR); default: used when nvcc is found.
# --without-cuda      build a CPU-only program (the GPU backend is a stub).
# --with-cuda-arch=LIST  compute capabilities to build native code for (default: 80,90),
#                     or native: those of the GPUs of the build machine.
# CUDA asked for (--with-cuda, or an explicit --with-cuda-arch) that does not work is an
# error, and so is an architecture nvcc rejects. Without either, a missing nvcc gives the
# CPU-only program quietly, a broken toolkit with a warning.
# --without-nvml      no GPU energy counter even where NVML is found (_TB_CUDA_NVML).
# Sets NVCC (precious), NVCCFLAGS, CUDA_CPPFLAGS, CUDA_LIBS, TB_NVCC_GENCODE and the
# HAVE_CUDA conditional.
AC_DEFUN([TB_CHECK_CUDA], [
  AC_REQUIRE([AC_OPENMP])
  AC_ARG_VAR([NVCC], [CUDA compiler command])
  AC_ARG_VAR([NVCCFLAGS], [flags for the CUDA compiler (default: -O3 --threads 0)])
  AC_ARG_WITH([cuda],
    [AS_HELP_STRING([--with-cuda@<:@=DIR@:>@],
       [build the CUDA backend, with the toolkit in DIR (default: when nvcc is found)])],
    [], [with_cuda=check])
  AC_ARG_WITH([cuda-arch],
    [AS_HELP_STRING([--with-cuda-arch=LIST],
       [comma-separated compute capabilities to build native code for, or native for
        the GPUs of this machine (default: 80,90); PTX of the highest is added so
        that newer GPUs can run it])],
    [AS_CASE([$with_cuda_arch], [yes|no],
       [AC_MSG_ERROR([--with-cuda-arch needs a list of compute capabilities, such as 80,90, or native])])
     tb_cuda_arch_given=yes],
    [with_cuda_arch=80,90; tb_cuda_arch_given=no])
  AC_ARG_WITH([nvml],
    [AS_HELP_STRING([--without-nvml],
       [do not read the GPU's energy counter through NVML (default: read it where the CUDA
        toolkit has nvml.h and libnvidia-ml links and loads)])],
    [], [with_nvml=check])
  AS_IF([test -z "$NVCCFLAGS"], [NVCCFLAGS="-O3 --threads 0"])

  dnl Naming the architectures asks for CUDA as plainly as --with-cuda does.
  AS_CASE([$with_cuda:$tb_cuda_arch_given],
    [check:yes], [with_cuda=yes],
    [no:yes], [AC_MSG_WARN([--with-cuda-arch=$with_cuda_arch is ignored: --without-cuda])])

  tb_have_cuda=no
  tb_cuda_fail=
  tb_cuda_missing=no
  AS_IF([test "x$with_cuda" != xno], [
    tb_cuda_dir=
    AS_CASE([$with_cuda], [yes|check], [], [tb_cuda_dir=$with_cuda])
    AS_IF([test -z "$NVCC"], [
      AS_IF([test -n "$tb_cuda_dir"],
        [AC_PATH_PROG([NVCC], [nvcc], [], [$tb_cuda_dir/bin])],
        [AC_PATH_PROG([NVCC], [nvcc], [], [$PATH$PATH_SEPARATOR/usr/local/cuda/bin])])])
    AS_IF([test -z "$NVCC"], [tb_cuda_fail="nvcc not found"; tb_cuda_missing=yes])
    AS_IF([test -z "$tb_cuda_fail" && test -z "$tb_cuda_dir"],
      [tb_cuda_dir=`AS_DIRNAME(["$NVCC"])`; tb_cuda_dir=`cd "$tb_cuda_dir/.." && pwd`])
    AS_IF([test -z "$tb_cuda_fail"], [
      tb_cuda_libdir=
      for d in "$tb_cuda_dir/lib64" "$tb_cuda_dir/lib" "$tb_cuda_dir/targets/x86_64-linux/lib"; do
        AS_IF([test -z "$tb_cuda_libdir" && test -d "$d"], [tb_cuda_libdir=$d])
      done
      AS_IF([test -z "$tb_cuda_libdir"], [tb_cuda_fail="no lib64 folder under $tb_cuda_dir"])])

    AS_IF([test -z "$tb_cuda_fail"], [_TB_CUDA_ARCH_LIST])
    AS_IF([test -z "$tb_cuda_fail"], [_TB_CUDA_KERNEL_PROBE])

    AS_IF([test -z "$tb_cuda_fail"], [
      tb_save_LIBS=$LIBS; tb_save_LDFLAGS=$LDFLAGS
      LDFLAGS="$LDFLAGS -L$tb_cuda_libdir"
      AC_CHECK_LIB([cudart], [cudaGetDeviceCount], [], [tb_cuda_fail="libcudart not usable"])
      AC_CHECK_LIB([cufft], [cufftPlan1d], [], [tb_cuda_fail="libcufft not usable"])
      AC_CHECK_LIB([curand], [curandCreateGenerator], [], [tb_cuda_fail="libcurand not usable"])
      LIBS=$tb_save_LIBS; LDFLAGS=$tb_save_LDFLAGS])

    dnl Without nvcc the CPU-only program is what was asked for; a toolkit that is there
    dnl but does not work is worth a warning, which -q does not hide.
    AS_IF([test -z "$tb_cuda_fail"], [
      tb_have_cuda=yes
      CUDA_CPPFLAGS="-I$tb_cuda_dir/include"
      CUDA_LIBS="-L$tb_cuda_libdir -Wl,-rpath,$tb_cuda_libdir -lcufft -lcurand -lcudart -lstdc++"
      AC_DEFINE([TB_HAVE_CUDA], [1], [the CUDA backend is built])
      _TB_CUDA_NVML],
      [AS_CASE([$with_cuda:$tb_cuda_missing],
         [check:yes], [AC_MSG_NOTICE([CUDA not used: $tb_cuda_fail; building the CPU-only program])],
         [check:no], [AC_MSG_WARN([CUDA not used: $tb_cuda_fail; building the CPU-only program])],
         [AC_MSG_ERROR([CUDA was requested but does not work: $tb_cuda_fail])])])
  ])
  AS_IF([test "x$tb_have_cuda" = xno], [TB_NVCC_GENCODE=])
  AC_SUBST([CUDA_CPPFLAGS])
  AC_SUBST([CUDA_LIBS])
  AC_SUBST([TB_NVCC_GENCODE])
  AC_DEFINE_UNQUOTED([TB_CONFIG_NVCCFLAGS], ["$NVCCFLAGS $TB_NVCC_GENCODE"], [CUDA compiler flags])
  AM_CONDITIONAL([HAVE_CUDA], [test "x$tb_have_cuda" = xyes])
])

# _TB_CUDA_ARCH_LIST
# ------------------
# Turns $with_cuda_arch into tb_cuda_archs (sorted, without repeats) and TB_NVCC_GENCODE:
# native code for each, and PTX of the highest (without a suffix such as the a of 90a,
# which would tie it to one GPU) for the GPUs that come after. A word that is not a
# compute capability is an error; native is replaced by the build machine's GPUs.
AC_DEFUN([_TB_CUDA_ARCH_LIST], [
  tb_cuda_archs=
  for a in `echo "$with_cuda_arch" | tr ',' ' '`; do
    AS_CASE([$a],
      [native], [_TB_CUDA_NATIVE_ARCH
                 a=$tb_cuda_native],
      [[[!0-9]]*|*[[!0-9a-z]]*],
        [AC_MSG_ERROR([--with-cuda-arch: '$a' is not a compute capability (write 90 for sm_90, 100a for sm_100a, or native)])])
    tb_cuda_archs="$tb_cuda_archs $a"
  done
  tb_cuda_archs=`echo $tb_cuda_archs | tr ' ' '\n' | sort -u | sort -n`
  tb_cuda_archs=`echo $tb_cuda_archs`
  AS_IF([test -z "$tb_cuda_archs"],
    [AC_MSG_ERROR([--with-cuda-arch=$with_cuda_arch names no compute capability])])
  TB_NVCC_GENCODE=
  tb_cuda_ptx=
  for a in $tb_cuda_archs; do
    TB_NVCC_GENCODE="$TB_NVCC_GENCODE -gencode=arch=compute_$a,code=sm_$a"
    tb_cuda_ptx=`echo "$a" | sed 's/[[a-z]]*$//'`
  done
  TB_NVCC_GENCODE="$TB_NVCC_GENCODE -gencode=arch=compute_$tb_cuda_ptx,code=compute_$tb_cuda_ptx"
])

# _TB_CUDA_NATIVE_ARCH
# --------------------
# Sets tb_cuda_native to the compute capabilities of the GPUs this machine's CUDA runtime
# sees (those CUDA_VISIBLE_DEVICES leaves), by building and running a probe; no GPU is an
# error. nvcc's own -arch=native is not used: without a GPU it warns and builds for its
# default architecture, and the numbers are wanted in the reports' build flags.
AC_DEFUN([_TB_CUDA_NATIVE_ARCH], [
  AC_MSG_CHECKING([for the compute capabilities of this machine's GPUs])
  cat > conftest.cu <<'_TBEOF'
#include <stdio.h>
#include <cuda_runtime.h>
int main(void)
{
  int n = 0, major = 0, minor = 0;
  cudaError_t e = cudaGetDeviceCount(&n);
  if (e == cudaSuccess && n == 0)
    e = cudaErrorNoDevice;
  for (int d = 0; e == cudaSuccess && d < n; d++) {
    e = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, d);
    if (e == cudaSuccess)
      e = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, d);
    if (e == cudaSuccess)
      printf("%d%d\n", major, minor);
  }
  if (e != cudaSuccess)
    fprintf(stderr, "%s\n", cudaGetErrorString(e));
  return e != cudaSuccess;
}
_TBEOF
  tb_cuda_native=
  AS_IF([$NVCC $NVCCFLAGS -o conftest$EXEEXT conftest.cu >&AS_MESSAGE_LOG_FD 2>&1],
    [AS_IF([./conftest$EXEEXT >conftest.out 2>conftest.err],
       [tb_cuda_native=`sort -u conftest.out`; tb_cuda_native=`echo $tb_cuda_native`],
       [tb_cuda_native_err=`cat conftest.err`])],
    [tb_cuda_native_err="$NVCC cannot build the probe (see config.log)"])
  rm -f conftest.cu conftest$EXEEXT conftest.out conftest.err
  AS_IF([test -n "$tb_cuda_native"], [AC_MSG_RESULT([$tb_cuda_native])],
    [AC_MSG_RESULT([none])
     AC_MSG_ERROR([--with-cuda-arch=native: the CUDA runtime finds no GPU on this machine ($tb_cuda_native_err); name the compute capabilities instead, such as --with-cuda-arch=80,90])])
])

# _TB_CUDA_KERNEL_PROBE
# ---------------------
# Compiles a kernel with NVCCFLAGS and TB_NVCC_GENCODE. When that fails for a list the user
# gave, each architecture is tried alone, without NVCCFLAGS (which may be the culprit), and
# one nvcc rejects is named in an error; otherwise the failure is left in tb_cuda_fail.
AC_DEFUN([_TB_CUDA_KERNEL_PROBE], [
  AC_MSG_CHECKING([whether $NVCC compiles a kernel for compute capabilities $tb_cuda_archs])
  cat > conftest.cu <<'_TBEOF'
__global__ void tb_probe(float *x) { x[[threadIdx.x]] *= 2.0f; }
int main(void) { tb_probe<<<1, 32>>>(0); return 0; }
_TBEOF
  AS_IF([$NVCC $NVCCFLAGS $TB_NVCC_GENCODE -c conftest.cu -o conftest.$OBJEXT >&AS_MESSAGE_LOG_FD 2>&1],
    [AC_MSG_RESULT([yes])],
    [AC_MSG_RESULT([no])
     tb_cuda_fail="$NVCC cannot compile a kernel for compute capabilities $tb_cuda_archs with NVCCFLAGS=$NVCCFLAGS (see config.log)"
     AS_IF([test "x$tb_cuda_arch_given" = xyes], [
       for a in $tb_cuda_archs; do
         AS_IF([$NVCC -gencode=arch=compute_$a,code=sm_$a -c conftest.cu -o conftest.$OBJEXT >&AS_MESSAGE_LOG_FD 2>&1],
           [], [rm -f conftest.cu conftest.$OBJEXT
                AC_MSG_ERROR([--with-cuda-arch: $NVCC does not support compute capability $a ($NVCC --list-gpu-arch lists those it does)])])
       done])])
  rm -f conftest.cu conftest.$OBJEXT
])

# _TB_CUDA_NVML
# -------------
# NVML, for the GPU's energy counter: nvml.h in the toolkit's include folder, and
# libnvidia-ml where the linker finds it by itself, else in the toolkit's library folder or
# its stubs. A program linked with it must also start here: a stub links, but the program
# then needs the driver's libnvidia-ml.so.1 at run time, and a build machine without the
# driver would get a twinbench that cannot start. Without NVML the GPU rows have no energy.
# Sets tb_have_nvml, defines TB_HAVE_NVML and adds the library to CUDA_LIBS.
AC_DEFUN([_TB_CUDA_NVML], [
  tb_have_nvml=no
  AS_IF([test "x$with_nvml" != xno], [
    tb_save_CPPFLAGS=$CPPFLAGS
    CPPFLAGS="$CPPFLAGS -I$tb_cuda_dir/include"
    AC_CHECK_HEADER([nvml.h], [tb_nvml_h=yes], [tb_nvml_h=no])
    CPPFLAGS=$tb_save_CPPFLAGS
    AS_IF([test "x$tb_nvml_h" = xyes], [
      AC_MSG_CHECKING([for a libnvidia-ml that links and loads])
      tb_nvml_libs=
      for d in none "$tb_cuda_libdir" "$tb_cuda_libdir/stubs"; do
        tb_save_LIBS=$LIBS; tb_save_LDFLAGS=$LDFLAGS; tb_save_CPPFLAGS=$CPPFLAGS
        CPPFLAGS="$CPPFLAGS -I$tb_cuda_dir/include"
        tb_try_libs="-lnvidia-ml"
        AS_IF([test "x$d" != xnone], [tb_try_libs="-L$d -lnvidia-ml"])
        LIBS="$tb_try_libs $LIBS"
        AC_RUN_IFELSE([AC_LANG_PROGRAM([[#include <nvml.h>
volatile int tb_never;]], [[return tb_never ? (int)nvmlInit_v2() : 0;]])],
          [tb_nvml_libs=$tb_try_libs], [], [])
        LIBS=$tb_save_LIBS; LDFLAGS=$tb_save_LDFLAGS; CPPFLAGS=$tb_save_CPPFLAGS
        AS_IF([test -n "$tb_nvml_libs"], [break])
      done
      AS_IF([test -n "$tb_nvml_libs"], [
        AC_MSG_RESULT([$tb_nvml_libs])
        tb_have_nvml=yes
        CUDA_LIBS="$CUDA_LIBS $tb_nvml_libs"
        AC_DEFINE([TB_HAVE_NVML], [1], [the GPU's energy counter is read through NVML])],
        [AC_MSG_RESULT([no])])])
    AS_IF([test "x$with_nvml" = xyes && test "x$tb_have_nvml" = xno],
      [AC_MSG_ERROR([--with-nvml: NVML was requested but nvml.h or a loadable libnvidia-ml was not found])])
  ])
])
