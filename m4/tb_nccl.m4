# TB_CHECK_NCCL: NCCL, for the GPU's distributed twins (transport=nccl); optional, and only
# with CUDA and MPI, since the communicator's id travels by MPI. --with-nccl=check (default)
# uses it where found; --with-nccl demands it; --with-nccl=DIR looks in DIR/include and
# DIR/lib; --without-nccl leaves it out. Looked for in the CUDA toolkit's folders, /usr,
# /usr/local, and the nvidia-nccl wheel of python3 (the package nvidia.nccl, as the GPU
# machines have it). The wheel holds only libnccl.so.2, so the library is linked by its
# path, with an rpath. Adds to CUDA_CPPFLAGS and CUDA_LIBS; defines TB_HAVE_NCCL.
AC_DEFUN([TB_CHECK_NCCL], [
  AC_ARG_WITH([nccl],
    [AS_HELP_STRING([--with-nccl@<:@=DIR@:>@],
       [NCCL for the GPU twins' transport=nccl in MPI runs (default: check)])],
    [], [with_nccl=check])
  tb_have_nccl=no
  tb_nccl_why=
  AS_IF([test "x$with_nccl" = xno], [tb_nccl_why="--without-nccl"],
    [test "x$tb_have_cuda" != xyes], [tb_nccl_why="no CUDA"],
    [test "x$tb_have_mpi" != xyes], [tb_nccl_why="no MPI"], [
    AS_CASE([$with_nccl], [yes|check], [
      tb_nccl_py=`python3 -c 'import nvidia.nccl as m; print(list(m.__path__)[[0]])' 2>/dev/null`
      tb_nccl_dirs="$tb_cuda_dir /usr /usr/local $tb_nccl_py"],
      [tb_nccl_dirs=$with_nccl])
    AC_MSG_CHECKING([for NCCL])
    for tb_d in $tb_nccl_dirs; do
      test -f "$tb_d/include/nccl.h" || continue
      for tb_l in "$tb_d/lib64" "$tb_d/lib" "$tb_d/lib/x86_64-linux-gnu" "$tb_d/targets/x86_64-linux/lib"; do
        for tb_f in "$tb_l/libnccl.so" "$tb_l/libnccl.so.2"; do
          test -f "$tb_f" || continue
          tb_save_CPPFLAGS=$CPPFLAGS; tb_save_LIBS=$LIBS
          CPPFLAGS="$CPPFLAGS $CUDA_CPPFLAGS -I$tb_d/include"
          LIBS="$tb_f $CUDA_LIBS $LIBS"
          AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <nccl.h>]],
              [[int v; return ncclGetVersion(&v) != ncclSuccess;]])],
            [tb_have_nccl=yes], [])
          CPPFLAGS=$tb_save_CPPFLAGS; LIBS=$tb_save_LIBS
          AS_IF([test "x$tb_have_nccl" = xyes], [break 3])
        done
      done
    done
    AS_IF([test "x$tb_have_nccl" = xyes], [
      AC_MSG_RESULT([$tb_f])
      AS_IF([test "x$tb_d" != x/usr && test "x$tb_d" != "x$tb_cuda_dir"],
        [CUDA_CPPFLAGS="$CUDA_CPPFLAGS -I$tb_d/include"])
      CUDA_LIBS="$CUDA_LIBS -Wl,-rpath,$tb_l $tb_f"
      AC_DEFINE([TB_HAVE_NCCL], [1], [the GPU's distributed twins can use NCCL])],
      [AC_MSG_RESULT([no]); tb_nccl_why="nccl.h and a libnccl that links not found"])])
  AS_IF([test "x$with_nccl" != xcheck && test "x$with_nccl" != xno && test "x$tb_have_nccl" = xno],
    [AC_MSG_ERROR([--with-nccl: NCCL was requested but is not usable ($tb_nccl_why)])])
])
