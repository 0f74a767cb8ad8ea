# TB_LIB_CHECK(VAR, PKG-MODULE, HEADER, FUNCTION, LIBRARY, [ACTION-IF-FOUND], [ACTION-IF-NOT])
# --------------------------------------------------------------------------------------------
# Find a library through pkg-config when the tool and the module's .pc file are there, and
# fall back to a plain header and link check otherwise. The GPU machine may lack pkg-config,
# so pkg.m4 (PKG_CHECK_MODULES) cannot be assumed at autoreconf time. Sets VAR_CFLAGS and
# VAR_LIBS (both AC_SUBST).
AC_DEFUN([TB_LIB_CHECK], [
  AC_REQUIRE([AC_PROG_CC])
  AC_PATH_TOOL([PKG_CONFIG], [pkg-config])
  AC_MSG_CHECKING([for $2 through pkg-config])
  tb_lib_found=no
  AS_IF([test -n "$PKG_CONFIG" && $PKG_CONFIG --exists "$2" 2>/dev/null],
    [$1_CFLAGS=`$PKG_CONFIG --cflags "$2"`
     $1_LIBS=`$PKG_CONFIG --libs "$2"`
     AC_MSG_RESULT([yes])],
    [AC_MSG_RESULT([no])
     $1_LIBS="-l$5"])
  tb_save_CPPFLAGS=$CPPFLAGS; tb_save_LIBS=$LIBS
  CPPFLAGS="$CPPFLAGS $$1_CFLAGS"; LIBS="$$1_LIBS $LIBS"
  AC_MSG_CHECKING([whether $3 and $4 from $2 work])
  AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <$3>]], [[(void)&$4;]])],
    [tb_lib_found=yes], [tb_lib_found=no])
  AC_MSG_RESULT([$tb_lib_found])
  CPPFLAGS=$tb_save_CPPFLAGS; LIBS=$tb_save_LIBS
  AC_SUBST([$1_CFLAGS])
  AC_SUBST([$1_LIBS])
  AS_IF([test "x$tb_lib_found" = xyes], [$6], [$7])
])

# TB_CHECK_HWLOC: hwloc >= 2 is required (placement, binding, topology report).
AC_DEFUN([TB_CHECK_HWLOC], [
  TB_LIB_CHECK([HWLOC], [hwloc], [hwloc.h], [hwloc_topology_init], [hwloc], [],
    [AC_MSG_ERROR([hwloc (>= 2.0) was not found; on Debian: apt-get install libhwloc-dev])])
  tb_save_CPPFLAGS=$CPPFLAGS; CPPFLAGS="$CPPFLAGS $HWLOC_CFLAGS"
  AC_MSG_CHECKING([whether hwloc is at least 2.0])
  AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[#include <hwloc.h>]],
      [[#if HWLOC_API_VERSION < 0x00020000
        #error hwloc too old
        #endif]])],
    [AC_MSG_RESULT([yes])],
    [AC_MSG_RESULT([no]); AC_MSG_ERROR([hwloc 2.0 or later is required])])
  CPPFLAGS=$tb_save_CPPFLAGS
])

# TB_CHECK_FFTW: FFTW3 in double and single precision with their OpenMP libraries.
# The OpenMP libraries ship no .pc file, so they are checked by linking, with the
# OpenMP flags. --with-fftw=check (default) uses FFTW when all four are there;
# --with-fftw demands them; --without-fftw leaves them out.
AC_DEFUN([TB_CHECK_FFTW], [
  AC_REQUIRE([AC_OPENMP])
  AC_ARG_WITH([fftw],
    [AS_HELP_STRING([--with-fftw], [use FFTW3 with its OpenMP libraries (default: check)])],
    [], [with_fftw=check])
  tb_have_fftw=no
  AS_IF([test "x$with_fftw" != xno], [
    TB_LIB_CHECK([FFTW3], [fftw3], [fftw3.h], [fftw_plan_dft_1d], [fftw3],
      [TB_LIB_CHECK([FFTW3F], [fftw3f], [fftw3.h], [fftwf_plan_dft_1d], [fftw3f],
        [tb_have_fftw=yes], [])], [])
    AS_IF([test "x$tb_have_fftw" = xyes], [
      tb_save_LIBS=$LIBS; tb_save_CFLAGS=$CFLAGS
      CFLAGS="$CFLAGS $OPENMP_CFLAGS"
      LIBS="$FFTW3F_LIBS $FFTW3_LIBS $LIBS"
      AC_CHECK_LIB([fftw3_omp], [fftw_init_threads], [], [tb_have_fftw=no], [$FFTW3_LIBS])
      AC_CHECK_LIB([fftw3f_omp], [fftwf_init_threads], [], [tb_have_fftw=no], [$FFTW3F_LIBS])
      LIBS=$tb_save_LIBS; CFLAGS=$tb_save_CFLAGS])
    AS_IF([test "x$tb_have_fftw" = xyes],
      [FFTW_LIBS="-lfftw3f_omp -lfftw3_omp $FFTW3F_LIBS $FFTW3_LIBS"
       FFTW_CFLAGS="$FFTW3_CFLAGS"
       AC_DEFINE([TB_HAVE_FFTW], [1], [FFTW3 with OpenMP is available])],
      [AS_IF([test "x$with_fftw" = xyes],
         [AC_MSG_ERROR([--with-fftw was given but FFTW3 (double, single and their OpenMP libraries) was not found])],
         [AC_MSG_WARN([FFTW3 with OpenMP not found: FFT-based families are left out])])])
  ])
  AC_SUBST([FFTW_CFLAGS])
  AC_SUBST([FFTW_LIBS])
  AM_CONDITIONAL([TB_FFTW], [test "x$tb_have_fftw" = xyes])
])
