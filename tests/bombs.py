"""Small PDFs that make a renderer do far more work than their size says: the classes the upload
check must refuse by structure before anything draws them. Shared by the tests and
``benchmarks/bombs.py``; each builder returns the file's bytes."""

from __future__ import annotations

import io
import zlib

import pikepdf


def _save(pdf: pikepdf.Pdf, **options: object) -> bytes:
    out = io.BytesIO()
    pdf.save(out, **options)  # type: ignore[arg-type]
    return out.getvalue()


def _flate(pdf: pikepdf.Pdf, data: bytes, **keys: object) -> pikepdf.Stream:
    stream = pikepdf.Stream(pdf, zlib.compress(data, 9))
    stream.Filter = pikepdf.Name.FlateDecode
    for key, value in keys.items():
        stream[f"/{key}"] = value
    return pdf.make_indirect(stream)


def nested_forms(levels: int = 5, fanout: int = 40) -> bytes:
    """A page painting a form that paints the next form ``fanout`` times, ``levels`` deep:
    ``fanout ** levels`` strokes drawn from a file of about 2 KB."""
    pdf = pikepdf.new()
    pdf.add_blank_page()
    box = pikepdf.Array([0, 0, 10, 10])
    form = _flate(pdf, b"0 0 m 1 1 l S\n", Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Form, BBox=box)
    for _ in range(levels):
        form = _flate(
            pdf,
            b"/F Do\n" * fanout,
            Type=pikepdf.Name.XObject,
            Subtype=pikepdf.Name.Form,
            BBox=box,
            Resources=pikepdf.Dictionary(XObject=pikepdf.Dictionary(F=form)),
        )
    page = pdf.pages[0]
    page.Resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(F=form))
    page.Contents = _flate(pdf, b"/F Do\n")
    return _save(pdf)


def save_restore_stream(size: int = 240 << 20, pages: int = 2) -> bytes:
    """``pages`` pages drawing one content stream of ``size`` bytes of ``q Q`` (save and restore
    the graphics state, nothing else): under the byte limits, millions of operators."""
    pdf = pikepdf.new()
    packer = zlib.compressobj(9)
    piece = b"q Q\n" * (1 << 18)  # 1 MiB
    body = b"".join(packer.compress(piece) for _ in range(size >> 20)) + packer.flush()
    content = pikepdf.Stream(pdf, body)
    content.Filter = pikepdf.Name.FlateDecode
    shared = pdf.make_indirect(content)
    for _ in range(pages):
        pdf.add_blank_page()
        pdf.pages[-1].Contents = shared
    return _save(pdf)


def many_objects(count: int = 3_000_000) -> bytes:
    """A one-page PDF with ``count`` small objects packed in object streams."""
    pdf = pikepdf.new()
    pdf.add_blank_page()
    bag = pikepdf.Array([pdf.make_indirect(pikepdf.Dictionary(N=n)) for n in range(count)])
    pdf.Root.Bag = pdf.make_indirect(bag)
    return _save(pdf, object_stream_mode=pikepdf.ObjectStreamMode.generate, compress_streams=True)


def inline_image(width: int = 20_000, height: int = 20_000) -> bytes:
    """A page painting an inline image (``BI … ID … EI``) that declares ``width`` × ``height``
    pixels and carries a few bytes of them."""
    pdf = pikepdf.new()
    pdf.add_blank_page()
    body = b"q 500 0 0 700 50 50 cm BI /W %d /H %d /BPC 8 /CS /G /F /AHx ID 00> EI Q\n" % (width, height)
    pdf.pages[0].Contents = _flate(pdf, body)
    return _save(pdf)


def many_images(count: int = 8, width: int = 14_000, height: int = 14_000, *, pages: int = 1) -> bytes:
    """``count`` distinct grey images of ``width`` × ``height`` pixels (each a few kilobytes of
    Flate), spread over ``pages`` pages: each under the per-image limit, together far over a page's."""
    pdf = pikepdf.new()
    images = []
    for n in range(count):
        packer = zlib.compressobj(9)
        row = bytes([n % 256]) * width
        data = b"".join(packer.compress(row) for _ in range(height)) + packer.flush()
        image = pikepdf.Stream(pdf, data)
        image.Type, image.Subtype = pikepdf.Name.XObject, pikepdf.Name.Image
        image.Width, image.Height, image.BitsPerComponent = width, height, 8
        image.ColorSpace, image.Filter = pikepdf.Name.DeviceGray, pikepdf.Name.FlateDecode
        images.append(pdf.make_indirect(image))
    for p in range(pages):
        pdf.add_blank_page()
        mine = images[p::pages]
        names = {f"/Im{n}": image for n, image in enumerate(mine)}
        pdf.pages[-1].Resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(names))
        pdf.pages[-1].Contents = _flate(
            pdf, b"".join(b"q 500 0 0 700 50 50 cm /Im%d Do Q\n" % n for n in range(len(mine)))
        )
    return _save(pdf)


def deep_outline(levels: int = 60_000) -> bytes:
    """A one-page PDF whose bookmarks nest ``levels`` deep, each the ``/First`` child of the one
    before: a reader that walks the outline recursively overflows its stack."""
    pdf = pikepdf.new()
    pdf.add_blank_page()
    root = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Outlines, Count=levels))
    parent = root
    for n in range(levels):
        item = pdf.make_indirect(pikepdf.Dictionary(Title=pikepdf.String(f"{n}"), Parent=parent))
        parent.First = parent.Last = item
        parent = item
    pdf.Root.Outlines = root
    return _save(pdf)


def packed_behind_broken_xref(count: int = 2_000_000) -> bytes:
    """A one-page PDF whose trailer declares 6 objects and whose cross-reference table is gone,
    with one object stream of ``count`` small objects: a reader rebuilding the damaged file reads
    them all, whatever the trailer says."""
    header = b" ".join(b"%d %d" % (10 + n, 2 * n) for n in range(count)) + b"\n"
    body = b"0 " * count
    packed = zlib.compress(header + body, 9)
    parts = [
        b"%PDF-1.7\n",
        b"1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n",
        b"2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n",
        b"3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>\nendobj\n",
        b"4 0 obj\n<< /Type /ObjStm /N %d /First %d /Filter /FlateDecode /Length %d >>\nstream\n"
        % (count, len(header), len(packed)),
        packed,
        b"\nendstream\nendobj\n",
        b"5 0 obj\n<< /Producer (x) >>\nendobj\n",
        b"trailer\n<< /Size 6 /Root 1 0 R >>\nstartxref\n999999\n%%EOF\n",
    ]
    return b"".join(parts)
