/* The text-file reader: lines and their numbers, the limits, and binary
 * content refused without echoing it. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/status.h"
#include "common/textfile.h"
#include "testutil.h"

static char dir[] = "/tmp/tbtextXXXXXX";
static char path[64];

/* Write len bytes of content to the test file. */
static void put(const char *content, size_t len)
{
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(content, 1, len, f) != len || fclose(f)) {
    fprintf(stderr, "cannot write %s\n", path);
    exit(99);
  }
}

/* The file holding content reads as the lines want (joined by '|'). */
static void lines(const char *content, const char *want)
{
  tb_textfile_t f;
  char got[256] = "", *line;
  int64_t no, expect = 1;
  put(content, strlen(content));
  int rc = tb_textfile_read(&f, path, 1 << 20);
  CHECK(rc == TB_OK, "'%s': %s", content, tb_error_detail());
  while (!rc && tb_textfile_next(&f, &line, &no)) {
    CHECK(no == expect, "line %lld numbered %lld", (long long)expect, (long long)no);
    expect++;
    strcat(got, no > 1 ? "|" : "");
    strcat(got, line);
  }
  CHECK(!strcmp(got, want), "'%s' read as '%s', not '%s'", content, got, want);
  tb_textfile_free(&f);
}

/* The file holding len bytes of content is refused with a message holding
 * why, and no byte of the content that is not plain ASCII text. */
static void refused(const char *content, size_t len, int64_t max, const char *why)
{
  tb_textfile_t f;
  put(content, len);
  int rc = tb_textfile_read(&f, path, max);
  const char *msg = tb_error_detail();
  CHECK(rc == TB_EINVAL && strstr(msg, why), "rc %d, message '%s', expected '%s'", rc, msg, why);
  for (const char *c = msg; *c; c++)
    CHECK(*c >= 0x20 && *c < 0x7F, "the message '%s' holds byte 0x%02x", msg,
          (unsigned char)*c);
  CHECK(!strchr(msg, '\n'), "the message has more than one line");
  tb_textfile_free(&f);
}

int main(void)
{
  if (!mkdtemp(dir))
    return 99;
  snprintf(path, sizeof path, "%s/t", dir);

  lines("", "");
  lines("a\nb", "a|b");
  lines("a\r\n\nb\n", "a||b");
  lines("\xEF\xBB\xBFS,X,T\n", "S,X,T");
  lines("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80\t\v\f\n", "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80\t\v\f");

  refused("1\n2\0003\n", 5, 1 << 20, ":2: binary data, not text (a NUL byte at column 2)");
  refused("1\n\0332\n", 4, 1 << 20, ":2: binary data, not text (a control character at column 1)");
  refused("x\x7F", 2, 1 << 20, ":1: binary data, not text (a control character at column 2)");
  refused("\xC2\x9B", 2, 1 << 20, "(a control character at column 1)"); /* C1 CSI */
  refused("ab\xFF", 3, 1 << 20, ":1: binary data, not text (a byte that is not UTF-8 at column 3)");
  refused("\xC0\xAF", 2, 1 << 20, "not UTF-8 at column 1");         /* overlong */
  refused("\xED\xA0\x80", 3, 1 << 20, "not UTF-8 at column 1");     /* a surrogate */
  refused("\n\xE2\x82", 3, 1 << 20, ":2: binary data, not text (a byte that is not UTF-8"); /* cut */

  /* The longest line passes; one byte more does not. */
  static char big[3 * TB_TEXTFILE_MAX_LINE];
  memset(big, 'x', sizeof big);
  big[TB_TEXTFILE_MAX_LINE] = '\n';
  tb_textfile_t f;
  put(big, TB_TEXTFILE_MAX_LINE + 1);
  CHECK(tb_textfile_read(&f, path, 1 << 20) == TB_OK, "%s", tb_error_detail());
  tb_textfile_free(&f);
  big[TB_TEXTFILE_MAX_LINE] = 'x';
  refused(big, sizeof big, 1 << 20, ":1: line longer than 4096 bytes");
  big[0] = '\n';
  refused(big, TB_TEXTFILE_MAX_LINE + 2, 1 << 20, ":2: line longer than 4096 bytes");

  /* The size limit: exactly max bytes pass. */
  memset(big, '\n', sizeof big);
  put(big, 1000);
  CHECK(tb_textfile_read(&f, path, 1000) == TB_OK, "%s", tb_error_detail());
  tb_textfile_free(&f);
  refused(big, 1001, 1000, ": more than the 1000 bytes this input may hold");

  /* Neither a missing file nor a directory is read. */
  CHECK(tb_textfile_read(&f, dir, 1000) == TB_EINVAL &&
            strstr(tb_error_detail(), ": is a directory, not a file"),
        "%s", tb_error_detail());
  tb_textfile_free(&f);
  unlink(path);
  CHECK(tb_textfile_read(&f, path, 1000) == TB_EINVAL &&
            strstr(tb_error_detail(), ": cannot open: No such file") && f.open_errno,
        "%s", tb_error_detail());
  tb_textfile_free(&f);
  rmdir(dir);
  TEST_EXIT();
}
