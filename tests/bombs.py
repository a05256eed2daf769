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


def _fan_out(pdf: pikepdf.Pdf, levels: int, fanout: int) -> pikepdf.Stream:
    """A form painting the next form ``fanout`` times, ``levels`` deep (the top one returned)."""
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
    return form


def pattern_fan_out(levels: int = 5, fanout: int = 40) -> bytes:
    """A page filled with a tiling pattern whose cell paints a form fan-out: the forms are
    reachable only through ``/Pattern``."""
    pdf = pikepdf.new()
    pdf.add_blank_page()
    cell = _flate(
        pdf, b"/F Do\n", Type=pikepdf.Name.Pattern, PatternType=1, PaintType=1, TilingType=1,
        BBox=pikepdf.Array([0, 0, 600, 850]), XStep=600, YStep=850,
        Resources=pikepdf.Dictionary(XObject=pikepdf.Dictionary(F=_fan_out(pdf, levels, fanout))),
    )  # fmt: skip
    page = pdf.pages[0]
    page.Resources = pikepdf.Dictionary(Pattern=pikepdf.Dictionary(P=cell))
    page.Contents = _flate(pdf, b"/Pattern cs /P scn 0 0 595 842 re f\n")
    return _save(pdf)


def tiny_pattern_step(step: float = 0.05) -> bytes:
    """A page filled with a tiling pattern of one stroke per ``step`` × ``step`` points cell."""
    pdf = pikepdf.new()
    pdf.add_blank_page()
    cell = _flate(
        pdf, b"0 0 m 0.01 0.01 l S\n", Type=pikepdf.Name.Pattern, PatternType=1, PaintType=1, TilingType=1,
        BBox=pikepdf.Array([0, 0, step, step]), XStep=step, YStep=step, Resources=pikepdf.Dictionary(),
    )  # fmt: skip
    page = pdf.pages[0]
    page.Resources = pikepdf.Dictionary(Pattern=pikepdf.Dictionary(P=cell))
    page.Contents = _flate(pdf, b"/Pattern cs /P scn 0 0 595 842 re f\n")
    return _save(pdf)


def soft_mask_fan_out(levels: int = 5, fanout: int = 40) -> bytes:
    """A page setting an ExtGState whose soft mask's group paints a form fan-out."""
    pdf = pikepdf.new()
    pdf.add_blank_page()
    group = _flate(
        pdf, b"/F Do\n", Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Form, BBox=pikepdf.Array([0, 0, 10, 10]),
        Group=pikepdf.Dictionary(S=pikepdf.Name.Transparency),
        Resources=pikepdf.Dictionary(XObject=pikepdf.Dictionary(F=_fan_out(pdf, levels, fanout))),
    )  # fmt: skip
    state = pikepdf.Dictionary(
        Type=pikepdf.Name.ExtGState, SMask=pikepdf.Dictionary(S=pikepdf.Name.Luminosity, G=group)
    )
    page = pdf.pages[0]
    page.Resources = pikepdf.Dictionary(ExtGState=pikepdf.Dictionary(M=state))
    page.Contents = _flate(pdf, b"/M gs 0 0 100 100 re f\n")
    return _save(pdf)


def type3_fan_out(glyphs: int = 200, levels: int = 4, fanout: int = 20) -> bytes:
    """A page showing ``glyphs`` glyphs of a Type 3 font whose every glyph paints a form fan-out."""
    pdf = pikepdf.new()
    pdf.add_blank_page()
    fan = _fan_out(pdf, levels, fanout)
    procs = pikepdf.Dictionary({f"/g{n}": _flate(pdf, b"1000 0 d0 /F Do\n") for n in range(glyphs)})
    names = pikepdf.Array([0, *(pikepdf.Name(f"/g{n}") for n in range(glyphs))])
    font = pdf.make_indirect(
        pikepdf.Dictionary(
            Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type3, FontBBox=pikepdf.Array([0, 0, 1000, 1000]),
            FontMatrix=pikepdf.Array([0.001, 0, 0, 0.001, 0, 0]), CharProcs=procs, FirstChar=0, LastChar=glyphs - 1,
            Widths=pikepdf.Array([1000] * glyphs),
            Encoding=pikepdf.Dictionary(Differences=names),
            Resources=pikepdf.Dictionary(XObject=pikepdf.Dictionary(F=fan)),
        )
    )  # fmt: skip
    page = pdf.pages[0]
    page.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(T=font))
    shown = bytes(range(min(glyphs, 200)))
    page.Contents = _flate(pdf, b"BT /T 12 Tf 10 10 Td <" + shown.hex().encode() + b"> Tj ET\n")
    return _save(pdf)


def mesh_shading(triangles: int = 100_000, paints: int = 20_000) -> bytes:
    """A page painting a free-form triangle mesh (shading type 4) of ``triangles`` triangles
    ``paints`` times."""
    pdf = pikepdf.new()
    pdf.add_blank_page()
    vertex = b"\x00" + b"\x00\x10" * 2 + b"\x80"  # flag, x, y (16 bits each), grey (8 bits)
    mesh = _flate(
        pdf, vertex * (3 * triangles), ShadingType=4, ColorSpace=pikepdf.Name.DeviceGray, BitsPerCoordinate=16,
        BitsPerComponent=8, BitsPerFlag=8, Decode=pikepdf.Array([0, 600, 0, 850, 0, 1]),
    )  # fmt: skip
    page = pdf.pages[0]
    page.Resources = pikepdf.Dictionary(Shading=pikepdf.Dictionary(S=mesh))
    page.Contents = _flate(pdf, b"/S sh\n" * paints)
    return _save(pdf)
