import { useEffect, useState } from "react";

type QrState = { status: "loading" } | { status: "ready"; src: string } | { status: "failed" };

/**
 * `value` as a QR code image. The encoder loads only when a QR code is first shown. Its SVG is our
 * own markup, shown as an image so nothing in it can run or touch the page.
 */
export function QrCode({ value, alt }: { value: string; alt: string }) {
  const [state, setState] = useState<QrState>({ status: "loading" });

  useEffect(() => {
    let current = true;
    setState({ status: "loading" });
    import("uqr").then(
      ({ renderSVG }) => {
        const svg = renderSVG(value, { border: 2 });
        if (current) setState({ status: "ready", src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}` });
      },
      () => {
        if (current) setState({ status: "failed" });
      },
    );
    return () => {
      current = false;
    };
  }, [value]);

  if (state.status === "failed") {
    return <p className="text-sm text-muted-foreground">The QR code could not be shown. Use the setup key instead.</p>;
  }
  // A fixed white square, so the code scans in the dark theme too and the page does not jump.
  return (
    <div className="size-48 rounded-md border bg-white p-1">
      {state.status === "ready" && <img src={state.src} alt={alt} width={184} height={184} className="size-full" />}
    </div>
  );
}
