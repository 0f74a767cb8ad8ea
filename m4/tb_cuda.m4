# TB_CHECK_CUDA
# -------------
# --with-cuda[=DIR]   use the CUDA toolkit (in DIR); default: used when nvcc is found.
# --without-cuda      build a CPU-only program (the GPU backend is a stub).
# --with-cuda-arch=LIST  compute capabilities to build native code for (default: 90).
# An explicitly requested CUDA that does not work is an error.
# Sets NVCC (precious), CUDA_CPPFLAGS, CUDA_LIBS, TB_NVCC_GENCODE and the HAVE_CUDA conditional.
AC_DEFUN([TB_CHECK_CUDA], [
  AC_REQUIRE([AC_OPENMP])
  AC_ARG_VAR([NVCC], [CUDA compiler command])
  AC_ARG_VAR([NVCCFLAGS], [flags for the CUDA compiler (default: -O3)])
  AC_ARG_WITH([cuda],
    [AS_HELP_STRING([--with-cuda@<:@=DIR@:>@],
       [build the CUDA backend, with the toolkit in DIR (default: when nvcc is found)])],
    [], [with_cuda=check])
  AC_ARG_WITH([cuda-arch],
    [AS_HELP_STRING([--with-cuda-arch=LIST],
       [comma-separated compute capabilities to build native code for (default: 90)])],
    [], [with_cuda_arch=90])

  tb_have_cuda=no
  tb_cuda_fail=
  AS_IF([test "x$with_cuda" != xno], [
    tb_cuda_dir=
    AS_CASE([$with_cuda], [yes|check], [], [tb_cuda_dir=$with_cuda])
    AS_IF([test -z "$NVCC"], [
      AS_IF([test -n "$tb_cuda_dir"],
        [AC_PATH_PROG([NVCC], [nvcc], [], [$tb_cuda_dir/bin])],
        [AC_PATH_PROG([NVCC], [nvcc], [], [$PATH$PATH_SEPARATOR/usr/local/cuda/bin])])])
    AS_IF([test -z "$NVCC"], [tb_cuda_fail="nvcc not found"])
    AS_IF([test -z "$tb_cuda_fail" && test -z "$tb_cuda_dir"],
      [tb_cuda_dir=`AS_DIRNAME(["$NVCC"])`; tb_cuda_dir=`cd "$tb_cuda_dir/.." && pwd`])
    AS_IF([test -z "$tb_cuda_fail"], [
      tb_cuda_libdir=
      for d in "$tb_cuda_dir/lib64" "$tb_cuda_dir/lib" "$tb_cuda_dir/targets/x86_64-linux/lib"; do
        AS_IF([test -z "$tb_cuda_libdir" && test -d "$d"], [tb_cuda_libdir=$d])
      done
      AS_IF([test -z "$tb_cuda_libdir"], [tb_cuda_fail="no lib64 folder under $tb_cuda_dir"])])

    dnl Native code for each listed architecture, plus PTX of the newest for forward compatibility.
    TB_NVCC_GENCODE=
    tb_last_arch=
    for a in `echo "$with_cuda_arch" | tr ',' ' '`; do
      TB_NVCC_GENCODE="$TB_NVCC_GENCODE -gencode=arch=compute_$a,code=sm_$a"
      tb_last_arch=$a
    done
    AS_IF([test -n "$tb_last_arch"],
      [TB_NVCC_GENCODE="$TB_NVCC_GENCODE -gencode=arch=compute_$tb_last_arch,code=compute_$tb_last_arch"],
      [tb_cuda_fail="empty --with-cuda-arch list"])

    AS_IF([test -z "$tb_cuda_fail"], [
      AC_MSG_CHECKING([whether $NVCC compiles a kernel for $with_cuda_arch])
      cat > conftest.cu <<_TBEOF
__global__ void tb_probe(float *x) { x[[threadIdx.x]] *= 2.0f; }
int main(void) { tb_probe<<<1, 32>>>(0); return 0; }
_TBEOF
      AS_IF([$NVCC $TB_NVCC_GENCODE -c conftest.cu -o conftest.$OBJEXT >&AS_MESSAGE_LOG_FD 2>&1],
        [AC_MSG_RESULT([yes])],
        [AC_MSG_RESULT([no]); tb_cuda_fail="$NVCC cannot compile a kernel (see config.log)"])
      rm -f conftest.cu conftest.$OBJEXT])

    AS_IF([test -z "$tb_cuda_fail"], [
      tb_save_LIBS=$LIBS; tb_save_LDFLAGS=$LDFLAGS
      LDFLAGS="$LDFLAGS -L$tb_cuda_libdir"
      AC_CHECK_LIB([cudart], [cudaGetDeviceCount], [], [tb_cuda_fail="libcudart not usable"])
      AC_CHECK_LIB([cufft], [cufftPlan1d], [], [tb_cuda_fail="libcufft not usable"])
      AC_CHECK_LIB([curand], [curandCreateGenerator], [], [tb_cuda_fail="libcurand not usable"])
      LIBS=$tb_save_LIBS; LDFLAGS=$tb_save_LDFLAGS])

    AS_IF([test -z "$tb_cuda_fail"], [
      tb_have_cuda=yes
      CUDA_CPPFLAGS="-I$tb_cuda_dir/include"
      CUDA_LIBS="-L$tb_cuda_libdir -Wl,-rpath,$tb_cuda_libdir -lcufft -lcurand -lcudart -lstdc++"
      AC_DEFINE([TB_HAVE_CUDA], [1], [the CUDA backend is built])],
      [AS_IF([test "x$with_cuda" = xcheck],
         [AC_MSG_NOTICE([CUDA not used: $tb_cuda_fail; building the CPU-only program])],
         [AC_MSG_ERROR([CUDA was requested but does not work: $tb_cuda_fail])])])
  ])
  AS_IF([test -z "$NVCCFLAGS"], [NVCCFLAGS="-O3"])
  AS_IF([test "x$tb_have_cuda" = xno], [TB_NVCC_GENCODE=])
  AC_SUBST([CUDA_CPPFLAGS])
  AC_SUBST([CUDA_LIBS])
  AC_SUBST([TB_NVCC_GENCODE])
  AC_DEFINE_UNQUOTED([TB_CONFIG_NVCCFLAGS], ["$NVCCFLAGS $TB_NVCC_GENCODE"], [CUDA compiler flags])
  AM_CONDITIONAL([HAVE_CUDA], [test "x$tb_have_cuda" = xyes])
])
