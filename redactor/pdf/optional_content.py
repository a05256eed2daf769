"""Which optional content (layers) a reader sees by default (ISO 32000-1 §8.11.4), so that the
rebuild removes what is OFF and keeps what is ON as ordinary content."""

from __future__ import annotations

import pikepdf

_N = pikepdf.Name


class OptionalContent:
    """Visibility of optional-content groups in the document's default configuration (/D):
    an OCG is OFF when listed in /OFF, or when /BaseState is /OFF and it is not in /ON; a
    membership dictionary (OCMD) follows its /VE expression or its /P policy over /OCGs."""

    def __init__(self, pdf: pikepdf.Pdf):
        self.off: set[tuple[int, int]] = set()
        props = pdf.Root.get("/OCProperties")
        if not isinstance(props, pikepdf.Dictionary):
            return
        config = props.get("/D")
        if not isinstance(config, pikepdf.Dictionary):
            return
        on = {o.objgen for o in config.get("/ON", []) if isinstance(o, pikepdf.Object)}
        if config.get("/BaseState") == _N.OFF:
            self.off = {o.objgen for o in props.get("/OCGs", []) if o.objgen not in on}
        self.off |= {o.objgen for o in config.get("/OFF", []) if isinstance(o, pikepdf.Object)}

    def hidden(self, oc: object) -> bool:
        """True when the OCG or OCMD ``oc`` is hidden (not drawn) by default."""
        if not isinstance(oc, pikepdf.Dictionary):
            return False
        if oc.get("/Type") == _N.OCMD:
            if "/VE" in oc:
                return not self._expression(oc.VE)
            listed = oc.get("/OCGs")
            groups = [listed] if isinstance(listed, pikepdf.Dictionary) else list(listed or [])
            if not groups:
                return False
            shown = [g.objgen not in self.off for g in groups]
            policy = oc.get("/P", _N.AnyOn)
            visible = {
                "/AllOn": all(shown),
                "/AnyOff": not all(shown),
                "/AllOff": not any(shown),
            }.get(str(policy), any(shown))
            return not visible
        return oc.objgen in self.off

    def _expression(self, ve: object) -> bool:
        if isinstance(ve, pikepdf.Dictionary):
            return ve.objgen not in self.off
        if not isinstance(ve, pikepdf.Array) or not len(ve):
            return True
        op, args = str(ve[0]), [self._expression(a) for a in list(ve)[1:]]
        if op == "/Not":
            return not args[0] if args else True
        if op == "/And":
            return all(args)
        return any(args)
