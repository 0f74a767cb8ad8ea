/* The distributed SOR twins' decomposition (sor.h, doc/mpi.md), without
 * MPI: on grids of uneven sizes and every process grid up to 3 x 3 x 3,
 * the ranks' boxes own every interior point once; the boxes one colour's
 * sweep visits are disjoint and cover the box, and overlapped, the first
 * of them hold exactly the points on the faces that travel; a face's slots
 * name each of its points of the colour once; and what a box sends towards
 * a neighbour is, slot by slot, what that neighbour receives from it, so
 * the exchange moves every point of the colour to its place. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "families/sor.h"
#include "testutil.h"

/* A problem's geometry as the decomposition sees it. */
static tb_sor_t geometry(int64_t nx, int64_t ny, int64_t nz, int px, int py, int pz)
{
  tb_sor_t s;
  memset(&s, 0, sizeof s);
  s.nx = nx;
  s.ny = ny;
  s.nz = nz;
  s.sx = nx + 2;
  s.sxy = s.sx * (ny + 2);
  s.cells = s.sxy * (nz + 2);
  s.pgrid[0] = px;
  s.pgrid[1] = py;
  s.pgrid[2] = pz;
  return s;
}

/* Mark every point of box b in count (by grid offset), adding `by`. */
static void mark(const tb_sor_t *s, const tb_sor_box_t *b, int *count, int by)
{
  for (int64_t k = b->lo[2]; k <= b->hi[2]; k++)
    for (int64_t j = b->lo[1]; j <= b->hi[1]; j++)
      for (int64_t i = b->lo[0]; i <= b->hi[0]; i++)
        count[i + s->sx * j + s->sxy * k] += by;
}

/* Whether point (i, j, k) of box b lies on a face that has a neighbour. */
static int travels(const tb_sor_box_t *b, const int has[3][2], const int64_t p[3])
{
  for (int a = 0; a < 3; a++)
    if ((has[a][0] && p[a] == b->lo[a]) || (has[a][1] && p[a] == b->hi[a]))
      return 1;
  return 0;
}

/* The sweep's boxes of box b for every choice of neighbours. */
static void check_sweeps(const tb_sor_t *s, const tb_sor_box_t *b, int *count)
{
  for (int mask = 0; mask < 64; mask++)
    for (int overlap = 0; overlap < 2; overlap++) {
      int has[3][2], early;
      tb_sor_box_t out[7];
      for (int d = 0; d < 6; d++)
        has[d / 2][d % 2] = (mask >> d) & 1;
      const int n = tb_sor_sweep_boxes(b, has, overlap, out, &early);
      CHECK(n >= 1 && n <= 7 && early <= n, "%d boxes, %d early", n, early);
      CHECK(overlap || early == 0, "blocking, %d early boxes", early);
      memset(count, 0, (size_t)s->cells * sizeof *count);
      for (int q = 0; q < n; q++)
        mark(s, &out[q], count, q < early ? 1 : 1000);
      for (int64_t k = 1; k <= s->nz; k++)
        for (int64_t j = 1; j <= s->ny; j++)
          for (int64_t i = 1; i <= s->nx; i++) {
            const int64_t p[3] = {i, j, k};
            const int inside = i >= b->lo[0] && i <= b->hi[0] && j >= b->lo[1] &&
                               j <= b->hi[1] && k >= b->lo[2] && k <= b->hi[2];
            const int want = !inside ? 0 : overlap && travels(b, has, p) ? 1 : 1000;
            const int got = count[i + s->sx * j + s->sxy * k];
            CHECK(got == want, "mask %d overlap %d: point (%lld, %lld, %lld) swept %d, want %d",
                  mask, overlap, (long long)i, (long long)j, (long long)k, got, want);
          }
    }
}

/* Face f's slots for colour col: each of its points of that colour once
 * (the layer's points of the colour, and nothing else). */
static void check_face(const tb_sor_t *s, const tb_sor_face_t *f, int col, int *count)
{
  int64_t named = 0, want = 0;
  memset(count, 0, (size_t)s->cells * sizeof *count);
  for (int64_t r = 0; r < f->nb; r++)
    for (int64_t q = 0; q < f->w; q++) {
      const int64_t c = tb_sor_face_at(f, col, r, q);
      if (c < 0)
        continue;
      const int64_t i = c % s->sx, j = c / s->sx % (s->ny + 2), k = c / s->sxy;
      CHECK(((i + j + k) & 1) == col, "slot (%lld, %lld) is of the other colour", (long long)r,
            (long long)q);
      count[c]++;
      named++;
    }
  for (int64_t r = 0; r < f->nb; r++)
    for (int64_t a = 0; a < f->na; a++) {
      const int64_t c = f->origin + a * f->sa + r * f->sb;
      const int64_t i = c % s->sx, j = c / s->sx % (s->ny + 2), k = c / s->sxy;
      if (((i + j + k) & 1) != col)
        continue;
      want++;
      CHECK(count[c] == 1, "a face point of the colour is named %d times", count[c]);
    }
  CHECK(named == want, "%lld slots name %lld points", (long long)named, (long long)want);
}

static void check_grid(int64_t nx, int64_t ny, int64_t nz, int px, int py, int pz)
{
  const tb_sor_t s = geometry(nx, ny, nz, px, py, pz);
  int *count = calloc((size_t)s.cells, sizeof *count), *owned = calloc((size_t)s.cells, sizeof *owned);
  if (!count || !owned) {
    CHECK(0, "out of memory");
    free(count);
    free(owned);
    return;
  }
  for (int cx = 0; cx < px; cx++)
    for (int cy = 0; cy < py; cy++)
      for (int cz = 0; cz < pz; cz++) {
        const int co[3] = {cx, cy, cz};
        tb_sor_box_t b;
        tb_sor_box_of(&s, co, &b);
        CHECK(!tb_sor_box_empty(&b), "grid %dx%dx%d: an empty box", px, py, pz);
        mark(&s, &b, owned, 1);
        check_sweeps(&s, &b, count);
        for (int d = 0; d < 6; d++) {
          const int a = d / 2, up = d % 2;
          tb_sor_face_t send, recv;
          tb_sor_face_of(&s, &b, d, 0, &send);
          for (int col = 0; col < 2; col++)
            check_face(&s, &send, col, count);
          /* The neighbour in direction d receives into its layer of the
           * opposite direction: the same points, slot by slot. */
          int nb[3] = {cx, cy, cz};
          nb[a] += up ? 1 : -1;
          if (nb[a] < 0 || nb[a] >= s.pgrid[a])
            continue;
          tb_sor_box_t other;
          tb_sor_box_of(&s, nb, &other);
          tb_sor_face_of(&s, &other, 2 * a + !up, 1, &recv);
          CHECK(tb_sor_face_slots(&send) == tb_sor_face_slots(&recv), "grid %dx%dx%d: %lld slots "
                "sent, %lld received", px, py, pz, (long long)tb_sor_face_slots(&send),
                (long long)tb_sor_face_slots(&recv));
          for (int col = 0; col < 2; col++)
            for (int64_t r = 0; r < send.nb && r < recv.nb; r++)
              for (int64_t q = 0; q < send.w; q++)
                CHECK(tb_sor_face_at(&send, col, r, q) == tb_sor_face_at(&recv, col, r, q),
                      "grid %dx%dx%d direction %d: slot (%lld, %lld) differs", px, py, pz, d,
                      (long long)r, (long long)q);
        }
      }
  for (int64_t k = 0; k < nz + 2; k++)
    for (int64_t j = 0; j < ny + 2; j++)
      for (int64_t i = 0; i < nx + 2; i++) {
        const int interior = i >= 1 && i <= nx && j >= 1 && j <= ny && k >= 1 && k <= nz;
        CHECK(owned[i + s.sx * j + s.sxy * k] == interior,
              "grid %dx%dx%d: point (%lld, %lld, %lld) owned %d times", px, py, pz, (long long)i,
              (long long)j, (long long)k, owned[i + s.sx * j + s.sxy * k]);
      }
  free(count);
  free(owned);
}

int main(void)
{
  /* Odd and even extents, so that shares and face rows are uneven; 3^3,
   * so that on three ranks an axis's middle box is one point thick between
   * two neighbours. */
  for (int px = 1; px <= 3; px++)
    for (int py = 1; py <= 3; py++)
      for (int pz = 1; pz <= 3; pz++) {
        check_grid(7, 6, 5, px, py, pz);
        check_grid(4, 5, 8, px, py, pz);
        check_grid(3, 3, 3, px, py, pz);
      }
  TEST_EXIT();
}
