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

/* A list of integers with ranges expands to exactly want (comma-joined). */
static void expands(const char *list, const char *want)
{
  char **items, got[4096];
  int n = 0;
  size_t k = 0;
  int rc = tb_list_split_ints(list, "--list", &items, &n);
  CHECK(rc == TB_OK, "'%s' refused: %s", list, tb_error_detail());
  if (rc)
    return;
  got[0] = '\0';
  for (int i = 0; i < n && k < sizeof got; i++)
    k += (size_t)snprintf(got + k, sizeof got - k, "%s%s", i ? "," : "", items[i]);
  CHECK(!strcmp(got, want), "'%s' expanded to '%s', want '%s'", list, got, want);
  tb_list_free(items, n);
}

static void refuses(const char *list, const char *why)
{
  char **items;
  int n;
  int rc = tb_list_split_ints(list, "--list", &items, &n);
  CHECK(rc == TB_EINVAL && strstr(tb_error_detail(), why), "'%s' gave rc %d, message '%s'", list,
        rc, tb_error_detail());
  if (rc == TB_OK)
    tb_list_free(items, n);
}

static void ranges(void)
{
  expands("1:16", "1,2,4,8,16");
  expands("1:12", "1,2,4,8,12");
  expands("3:12", "3,6,12");
  expands("5:5", "5");
  expands("2^16:2^20", "65536,131072,262144,524288,1048576");
  expands("1K:4K", "1024,2048,4096");
  expands("1:16:1", "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16");
  expands("2:8:2", "2,4,6,8");
  expands("1:10:4", "1,5,9,10");
  expands("0:4:2", "0,2,4");
  expands("-4:4:3", "-4,-1,2,4");
  expands("1:64:*4", "1,4,16,64");
  expands("1:100:*10", "1,10,100");
  expands("2:20:*3", "2,6,18,20");
  expands("1,3:12:3,16", "1,3,6,9,12,16");
  expands("sweep,1:2,auto", "sweep,1,2,auto");
  expands("1,2", "1,2");
  /* Near the 64-bit limit: the last step lands on the end without overflow. */
  expands("2^62:9223372036854775807", "4611686018427387904,9223372036854775807");
  expands("9223372036854775806:9223372036854775807:2^62",
          "9223372036854775806,9223372036854775807");
  expands("4611686018427387904:9223372036854775807:*3",
          "4611686018427387904,9223372036854775807");
  expands("-9223372036854775807:9223372036854775807:2^62+2^61",
          "-9223372036854775807,-2305843009213693951,4611686018427387905,9223372036854775807");
  char **items;
  int n;
  CHECK(tb_list_split_ints("1:4096:1", "--list", &items, &n) == TB_OK && n == TB_LIST_MAX,
        "a range of exactly %d values: %s", TB_LIST_MAX, tb_error_detail());
  tb_list_free(items, n);

  refuses("4:1", "--list '4:1' runs backwards: its start is above its end (write 1:4)");
  refuses("1:4:0", "--list '1:4:0': the step must be at least 1");
  refuses("1:4:-1", "the step must be at least 1");
  refuses("1:4:*1", "the factor must be at least 2");
  refuses("1:4:*0", "the factor must be at least 2");
  refuses("0:4", "a range that multiplies starts at 1 or more");
  refuses("-2:4:*2", "a range that multiplies starts at 1 or more");
  refuses("1:", "is not a range: write A:B");
  refuses(":4", "is not a range");
  refuses("1::4", "is not a range");
  refuses("1:4:", "is not a range");
  refuses("1:4:*", "is not a range");
  refuses("1:2:3:4", "is not a range");
  refuses("1:x", "--list '1:x': 'x' is not a number");
  refuses("1:2^63", "'2^63' overflows 64 bits");
  refuses("1:4:2.5", "not a number");
  refuses("1:4097:1", "--list '1:4097:1' gives more than 4096 values");
  refuses("1:2^62:1", "gives more than 4096 values");
  refuses("1:4000:1,1:200:1", "--list '1:200:1' gives more than 4096 values");
  refuses("1,,2:4", "--list: empty item in list");
}

int main(void)
{
  ranges();
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
  bad("1-2", "'1-2' is negative; ranges are written A:B, as in 1:2");
  bad("2^4-2^5", "as in 2^4:2^5");
  good("5-3", 2);

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
