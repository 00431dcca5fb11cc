/* Test helper: print what a PNG holds, read with libpng independently of
   heatsim's reader.
   Usage: png_probe FILE [X Y | inner-sum | pixels | interlace OUT]
   Prints "WIDTHxHEIGHT depth D type T", then one "key=value" line per text
   chunk, then, with X Y (X from the left, Y from the top), the samples of
   that pixel, or with inner-sum the sum of the first channel over all
   pixels but the outer ring.  With pixels it prints only the first line
   and a hash of the samples: equal for two images with the same pixels,
   whatever their text chunks (which record the command line).  With interlace OUT it writes the same
   pixels to OUT, Adam7-interlaced (a fixture no other tool is needed
   for).  */
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Write the image read into (in, in_info) to path, interlaced.  */
static int
write_interlaced (png_structp in, png_infop in_info, const char *path)
{
  FILE *fp = fopen (path, "wb");
  if (fp == NULL)
    {
      perror (path);
      return 1;
    }
  png_structp png = png_create_write_struct (PNG_LIBPNG_VER_STRING, NULL,
                                             NULL, NULL);
  png_infop info = png_create_info_struct (png);
  if (setjmp (png_jmpbuf (png)))
    {
      fputs ("png_probe: cannot write the interlaced image\n", stderr);
      return 1;
    }
  png_init_io (png, fp);
  png_set_IHDR (png, info, png_get_image_width (in, in_info),
                png_get_image_height (in, in_info),
                png_get_bit_depth (in, in_info),
                png_get_color_type (in, in_info), PNG_INTERLACE_ADAM7,
                PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_set_rows (png, info, png_get_rows (in, in_info));
  png_write_png (png, info, PNG_TRANSFORM_IDENTITY, NULL);
  png_destroy_write_struct (&png, &info);
  return fclose (fp) != 0;
}

int
main (int argc, char **argv)
{
  if (argc < 2 || argc > 4)
    {
      fputs ("usage: png_probe FILE [X Y | inner-sum | pixels | interlace "
             "OUT]\n", stderr);
      return 2;
    }
  FILE *fp = fopen (argv[1], "rb");
  if (fp == NULL)
    {
      perror (argv[1]);
      return 1;
    }
  png_structp png = png_create_read_struct (PNG_LIBPNG_VER_STRING, NULL,
                                            NULL, NULL);
  png_infop info = png_create_info_struct (png);
  if (setjmp (png_jmpbuf (png)))
    {
      fputs ("png_probe: not a readable PNG\n", stderr);
      return 1;
    }
  png_init_io (png, fp);
  png_read_png (png, info, PNG_TRANSFORM_IDENTITY, NULL);
  png_uint_32 w = png_get_image_width (png, info);
  png_uint_32 h = png_get_image_height (png, info);
  int depth = png_get_bit_depth (png, info);
  int type = png_get_color_type (png, info);
  printf ("%ux%u depth %d type %d\n", (unsigned) w, (unsigned) h, depth, type);
  if (argc == 3 && strcmp (argv[2], "pixels") == 0)
    {
      /* FNV-1a over every row's bytes.  */
      png_bytepp rows = png_get_rows (png, info);
      const size_t rowbytes = png_get_rowbytes (png, info);
      unsigned long long hash = 14695981039346656037ull;
      for (png_uint_32 y = 0; y < h; ++y)
        for (size_t k = 0; k < rowbytes; ++k)
          hash = (hash ^ rows[y][k]) * 1099511628211ull;
      printf ("%016llx\n", hash);
      png_destroy_read_struct (&png, &info, NULL);
      fclose (fp);
      return 0;
    }
  png_textp text;
  int n = png_get_text (png, info, &text, NULL);
  for (int k = 0; k < n; ++k)
    printf ("%s=%s\n", text[k].key, text[k].text);
  if (argc == 3)
    {
      png_bytepp rows = png_get_rows (png, info);
      int channels = png_get_channels (png, info), bytes = depth / 8;
      double sum = 0.0;
      for (png_uint_32 y = 1; y + 1 < h; ++y)
        for (png_uint_32 x = 1; x + 1 < w; ++x)
          {
            png_bytep p = rows[y] + (size_t) x * channels * bytes;
            sum += bytes == 2 ? (p[0] << 8 | p[1]) : p[0];
          }
      printf ("%.17g\n", sum);
    }
  if (argc == 4 && strcmp (argv[2], "interlace") == 0)
    {
      int status = write_interlaced (png, info, argv[3]);
      png_destroy_read_struct (&png, &info, NULL);
      fclose (fp);
      return status;
    }
  if (argc == 4)
    {
      unsigned x = (unsigned) atoi (argv[2]), y = (unsigned) atoi (argv[3]);
      png_bytepp rows = png_get_rows (png, info);
      int channels = png_get_channels (png, info);
      int bytes = depth / 8;
      for (int c = 0; c < channels; ++c)
        {
          png_bytep p = rows[y] + (size_t) (x * channels + c) * bytes;
          printf ("%u%c", bytes == 2 ? (unsigned) (p[0] << 8 | p[1])
                  : (unsigned) p[0], c + 1 < channels ? ' ' : '\n');
        }
    }
  png_destroy_read_struct (&png, &info, NULL);
  fclose (fp);
  return 0;
}
