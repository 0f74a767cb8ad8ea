/* Sizes, numbers and lists as the command line takes them. */
#include <config.h>

#include <string.h>

#include "common/parse.h"
#include "common/status.h"
#include "testutil.h"

static void good(const char *s, int64_t want)
{
  int64_t v = -1;
  int rc = tb_parse_size(s, "size", &v);
  CHECK(rc == TB_OK && v == want, "'%s' gave rc %d value %lld, want %lld (%s)", s, rc,
        (long long)v, (long long)want, tb_error_detail());
}

static void bad(const char *s, const char *why)
{
  int64_t v = -1;
  int rc = tb_parse_size(s, "size", &v);
  CHECK(rc == TB_EINVAL && strstr(tb_error_detail(), why), "'%s' gave rc %d, message '%s'", s,
        rc, tb_error_detail());
}

int main(void)
{
  good("1", 1);
  good("1000003", 1000003);
  good("4K", 4096);
  good("4k", 4096);
  good("16M", 16 << 20);
  good("2G", 2LL << 30);
  good("1T", 1LL << 40);
  good("2^22", 1 << 22);
  good("2^22+5", (1 << 22) + 5);
  good("2^10-1", 1023);
  good("1M+3", (1 << 20) + 3);
  good("2^62", 1LL << 62);
  good("9223372036854775807", INT64_MAX);

  bad("0", "at least 1");
  bad("-5", "negative");
  bad("abc", "not a number");
  bad("", "empty");
  bad("12Q", "not a number");
  bad("3^2", "powers of two");
  bad("2^", "exponent");
  bad("2^63", "overflows");
  bad("2^64", "overflows");
  bad("9223372036854775808", "overflows");
  bad("99999999999999999999999", "overflows");
  bad("17179869184G", "overflows");
  bad("5-6", "negative");

  int64_t v;
  CHECK(tb_parse_int("-12", &v) == TB_OK && v == -12, "negative integer");
  double r;
  CHECK(tb_parse_real("0.25", &r) == TB_OK && r == 0.25, "real");
  CHECK(tb_parse_real("1e999", &r) == TB_EINVAL, "real overflow accepted");
  CHECK(tb_parse_real("nan", &r) == TB_EINVAL, "nan accepted");
  CHECK(tb_parse_real("1.5x", &r) == TB_EINVAL, "trailing text accepted");
  CHECK(tb_parse_real("4e-320", &r) == TB_OK && r > 0.0 && r < 1e-319,
        "a subnormal number refused: %s", tb_error_detail());
  CHECK(tb_parse_real("-0e-999", &r) == TB_OK && r == 0.0, "an exact zero refused");
  CHECK(tb_parse_real("1e-400", &r) == TB_EINVAL && strstr(tb_error_detail(), "too small"),
        "an underflow to 0: %s", tb_error_detail());
  CHECK(tb_parse_real("-1e999", &r) == TB_EINVAL && strstr(tb_error_detail(), "too large"),
        "an overflow: %s", tb_error_detail());

  char **items;
  int n;
  CHECK(tb_list_split("a,bb,c", &items, &n) == TB_OK && n == 3 && !strcmp(items[1], "bb"),
        "list split");
  if (n == 3)
    tb_list_free(items, n);
  CHECK(tb_list_split("single", &items, &n) == TB_OK && n == 1 && !strcmp(items[0], "single"),
        "one item");
  tb_list_free(items, n);
  CHECK(tb_list_split("a,,b", &items, &n) == TB_EINVAL, "empty item accepted");
  CHECK(tb_list_split("a,", &items, &n) == TB_EINVAL, "trailing comma accepted");
  CHECK(tb_list_split("", &items, &n) == TB_EINVAL, "empty list accepted");
  TEST_EXIT();
}
