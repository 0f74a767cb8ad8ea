# TB_CHECK_MPI: MPI (Open MPI or any library whose compiler wrapper tells its flags), optional.
# --with-mpi=check (default) uses MPI when found; --with-mpi demands it; --without-mpi leaves
# it out. The flags come from Open MPI's pkg-config module ompi-c where it is installed, else
# from the wrapper: mpicc --showme:compile / --showme:link (Open MPI), or mpicc -show (MPICH),
# whose first word is the compiler it wraps. The program stays compiled by $CC: only the
# flags are taken, so that CUDA and the sanitizers see the same compiler. Sets MPI_CFLAGS,
# MPI_LIBS, TB_HAVE_MPI and the HAVE_MPI conditional (src/common/mpi.c or mpi_stub.c).
AC_DEFUN([TB_CHECK_MPI], [
  AC_REQUIRE([AC_PROG_CC])
  AC_ARG_WITH([mpi],
    [AS_HELP_STRING([--with-mpi], [use MPI for runs under mpirun (default: check)])],
    [], [with_mpi=check])
  AC_ARG_VAR([MPICC], [the MPI compiler wrapper whose flags are used (default: mpicc)])
  tb_have_mpi=no
  AS_IF([test "x$with_mpi" != xno], [
    AC_PATH_TOOL([PKG_CONFIG], [pkg-config])
    AC_CHECK_PROGS([MPICC], [mpicc], [])
    AC_MSG_CHECKING([for the MPI flags])
    AS_IF([test -n "$MPI_CFLAGS$MPI_LIBS"], [tb_mpi_from="MPI_CFLAGS and MPI_LIBS"],
      [test -n "$PKG_CONFIG" && $PKG_CONFIG --exists ompi-c 2>/dev/null],
      [MPI_CFLAGS=`$PKG_CONFIG --cflags ompi-c`
       MPI_LIBS=`$PKG_CONFIG --libs ompi-c`
       tb_mpi_from="pkg-config ompi-c"],
      [test -n "$MPICC" && $MPICC --showme:compile >/dev/null 2>&1],
      [MPI_CFLAGS=`$MPICC --showme:compile`
       MPI_LIBS=`$MPICC --showme:link`
       tb_mpi_from="$MPICC --showme"],
      [test -n "$MPICC" && $MPICC -show >/dev/null 2>&1],
      [tb_mpi_show=`$MPICC -show | cut -d' ' -f2-`
       MPI_CFLAGS=$tb_mpi_show
       MPI_LIBS=$tb_mpi_show
       tb_mpi_from="$MPICC -show"],
      [tb_mpi_from=none])
    AC_MSG_RESULT([$tb_mpi_from])
    dnl AM_CPPFLAGS reaches nvcc too, so only the -I and -D words of the compile flags go
    dnl there; any other word (-pthread) moves to the link flags, where gcc takes it.
    tb_mpi_cpp=; tb_mpi_other=
    for tb_w in $MPI_CFLAGS; do
      case $tb_w in
        -I*|-D*) tb_mpi_cpp="$tb_mpi_cpp $tb_w" ;;
        *) tb_mpi_other="$tb_mpi_other $tb_w" ;;
      esac
    done
    MPI_CFLAGS=$tb_mpi_cpp
    MPI_LIBS="$tb_mpi_other $MPI_LIBS"
    AS_IF([test "x$tb_mpi_from" != xnone], [
      tb_save_CPPFLAGS=$CPPFLAGS; tb_save_LIBS=$LIBS
      CPPFLAGS="$CPPFLAGS $MPI_CFLAGS"; LIBS="$MPI_LIBS $LIBS"
      AC_MSG_CHECKING([whether MPI programs link])
      AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <mpi.h>]],
          [[int r; MPI_Comm c; MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0,
            MPI_INFO_NULL, &c); MPI_Comm_rank(c, &r);]])],
        [tb_have_mpi=yes], [tb_have_mpi=no])
      AC_MSG_RESULT([$tb_have_mpi])
      AC_CHECK_HEADERS([mpi-ext.h], [], [], [[#include <mpi.h>]])
      CPPFLAGS=$tb_save_CPPFLAGS; LIBS=$tb_save_LIBS])
    AS_IF([test "x$with_mpi" = xyes && test "x$tb_have_mpi" != xyes],
      [AC_MSG_ERROR([--with-mpi: no working MPI (mpicc or pkg-config ompi-c); on Debian: apt-get install libopenmpi-dev openmpi-bin])])
  ])
  AS_IF([test "x$tb_have_mpi" = xyes],
    [AC_DEFINE([TB_HAVE_MPI], [1], [runs under mpirun are distributed over the ranks])],
    [MPI_CFLAGS=; MPI_LIBS=])
  AC_SUBST([MPI_CFLAGS])
  AC_SUBST([MPI_LIBS])
  AM_CONDITIONAL([HAVE_MPI], [test "x$tb_have_mpi" = xyes])
])
