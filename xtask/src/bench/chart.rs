//! `bench.svg` and `bench.png`: one horizontal bar pair per throughput row (ours blue, the
//! reference grey), scaled per row to the larger of the two, with the values and the ratio.
//!
//! Both files come from one drawing function over plotters' backends. The layout is computed
//! here, not by plotters' chart builder, because the builder measures text with the font, and
//! the SVG must not depend on one: its `<text>` elements name `sans-serif` and the viewer picks
//! the face. The PNG rasterizes its text, so it needs a font file; none may be committed to the
//! repository, so one is loaded from the system at run time (`FONT_PATHS`, or
//! `$FERROCUDA_CHART_FONT`). Without one the PNG is skipped with a message saying so: a PNG of
//! bars without their names would be unreadable, and the SVG has everything.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use plotters::coord::Shift;
use plotters::prelude::*;

use super::report::{Report, Unit};

/// Where Linux distributions, macOS and Windows keep a sans-serif TrueType font.
const FONT_PATHS: &[&str] = &[
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu-sans-fonts/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "/usr/share/fonts/liberation-sans/LiberationSans-Regular.ttf",
    "/usr/share/fonts/truetype/freefont/FreeSans.ttf",
    "/System/Library/Fonts/Supplemental/Arial.ttf",
    "C:\\Windows\\Fonts\\arial.ttf",
];

const WIDTH: u32 = 960;
/// Below the two title lines.
const TOP: i32 = 62;
const ROW_H: i32 = 50;
const BAR_H: i32 = 16;
/// Where the bars start; the row names are left of it.
const LEFT: i32 = 370;
/// Room right of the longest bar for its value, then the ratio column.
const RIGHT: i32 = 190;
const OURS: RGBColor = RGBColor(0x35, 0x72, 0xb0);
const REFERENCE: RGBColor = RGBColor(0x99, 0x99, 0x99);

/// One drawn row.
#[derive(Debug, Clone, PartialEq)]
pub struct Bar {
    pub name: String,
    pub unit: &'static str,
    pub ours: f64,
    pub reference: Option<f64>,
}

/// The rows worth a bar: throughput rows that measured ours.
pub fn bars(report: &Report) -> Vec<Bar> {
    report
        .rows
        .iter()
        .filter(|r| matches!(r.unit, Unit::GBps | Unit::Tflops))
        .filter_map(|r| {
            Some(Bar {
                name: r.name.clone(),
                unit: if r.unit == Unit::GBps {
                    "GB/s"
                } else {
                    "TFLOP/s"
                },
                ours: r.ours.as_ref()?.value,
                reference: r.reference.as_ref().map(|t| t.value),
            })
        })
        .collect()
}

fn height(bars: &[Bar]) -> u32 {
    TOP as u32 + 15 + bars.len() as u32 * ROW_H as u32
}

/// Draws the chart on any plotters backend.
fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    title: &str,
    bars: &[Bar],
) -> Result<(), String> {
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    area.fill(&WHITE).map_err(err)?;
    let font = |size: f64| ("sans-serif", size).into_font().color(&BLACK);
    let head = "Ferrocuda (blue) vs nvcc twin / reference (grey)";
    area.draw(&Text::new(head, (10, 10), font(17.0)))
        .map_err(err)?;
    area.draw(&Text::new(title.to_string(), (10, 32), font(14.0)))
        .map_err(err)?;
    let span = f64::from(WIDTH as i32 - LEFT - RIGHT);
    for (i, b) in bars.iter().enumerate() {
        let y = TOP + i as i32 * ROW_H;
        let max = b.ours.max(b.reference.unwrap_or(0.0)).max(1e-9);
        let len = |v: f64| (v / max * span).round() as i32;
        area.draw(&Text::new(b.name.clone(), (10, y + 8), font(15.0)))
            .map_err(err)?;
        let mut pair = vec![(b.ours, OURS)];
        if let Some(r) = b.reference.filter(|&r| r > 0.0) {
            pair.push((r, REFERENCE));
        }
        for (k, (v, color)) in pair.into_iter().enumerate() {
            let top = y + k as i32 * (BAR_H + 2);
            area.draw(&Rectangle::new(
                [(LEFT, top), (LEFT + len(v).max(1), top + BAR_H)],
                color.filled(),
            ))
            .map_err(err)?;
            let label = format!("{v:.1} {}", b.unit);
            area.draw(&Text::new(label, (LEFT + len(v) + 5, top + 1), font(14.0)))
                .map_err(err)?;
        }
        if let Some(r) = b.reference.filter(|&r| r > 0.0) {
            let ratio = format!("ratio {:.3}", b.ours / r);
            area.draw(&Text::new(ratio, (WIDTH as i32 - 95, y + 8), font(14.0)))
                .map_err(err)?;
        }
    }
    area.present().map_err(err)
}

/// The SVG as text.
pub fn svg(title: &str, bars: &[Bar]) -> Result<String, String> {
    let mut out = String::new();
    {
        let area = SVGBackend::with_string(&mut out, (WIDTH, height(bars))).into_drawing_area();
        draw(&area, title, bars)?;
    }
    Ok(out)
}

/// The PNG's pixels (RGB, row-major) and size; needs [`load_font`] to have succeeded.
pub fn png_pixels(title: &str, bars: &[Bar]) -> Result<(Vec<u8>, u32, u32), String> {
    let (w, h) = (WIDTH, height(bars));
    let mut pixels = vec![0u8; w as usize * h as usize * 3];
    {
        let area = BitMapBackend::with_buffer(&mut pixels, (w, h)).into_drawing_area();
        draw(&area, title, bars)?;
    }
    Ok((pixels, w, h))
}

fn write_png(path: &Path, title: &str, bars: &[Bar]) -> Result<(), String> {
    let (pixels, w, h) = png_pixels(title, bars)?;
    let file = std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut enc = png::Encoder::new(std::io::BufWriter::new(file), w, h);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    enc.write_header()
        .and_then(|mut w| w.write_image_data(&pixels))
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// The first font file that exists: `$FERROCUDA_CHART_FONT` when set, then `candidates`.
fn find_font(env: Option<PathBuf>, candidates: &[&str]) -> Option<PathBuf> {
    env.into_iter()
        .chain(candidates.iter().map(PathBuf::from))
        .find(|p| p.is_file())
}

/// Registers a system font as plotters' `sans-serif`, once per process: the font's path, or why
/// there is none.
pub fn load_font() -> Result<PathBuf, String> {
    static FONT: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    FONT.get_or_init(|| {
        let env = std::env::var_os("FERROCUDA_CHART_FONT").map(PathBuf::from);
        let path = find_font(env, FONT_PATHS).ok_or_else(|| {
            format!(
                "no font file found (set FERROCUDA_CHART_FONT, or install one at {})",
                FONT_PATHS[0]
            )
        })?;
        let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        // plotters keeps registered fonts for the whole process.
        let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
        plotters::style::register_font("sans-serif", FontStyle::Normal, bytes)
            .map_err(|_| format!("{}: not a TrueType/OpenType font", path.display()))?;
        Ok(path)
    })
    .clone()
}

/// Writes `bench.svg` and, where a system font exists, `bench.png` of `report` into `dir`;
/// returns the files written and, when the PNG was skipped, why.
pub fn write(dir: &Path, report: &Report) -> Result<(Vec<PathBuf>, Option<String>), String> {
    let (title, bars) = (report.device.as_str(), bars(report));
    let svg_path = dir.join("bench.svg");
    std::fs::write(&svg_path, svg(title, &bars)?)
        .map_err(|e| format!("{}: {e}", svg_path.display()))?;
    let mut written = vec![svg_path];
    match load_font() {
        Ok(_) => {
            let png_path = dir.join("bench.png");
            write_png(&png_path, title, &bars)?;
            written.push(png_path);
            Ok((written, None))
        }
        Err(why) => Ok((written, Some(format!("bench.png skipped: {why}")))),
    }
}

#[cfg(test)]
mod tests {
    use super::super::report::Row;
    use super::super::timing::Timing;
    use super::*;

    fn timing(median_ms: f64) -> Timing {
        Timing {
            median_ms,
            min_ms: median_ms,
            max_ms: median_ms,
        }
    }

    fn report() -> Report {
        Report::new("H100", &rows())
    }

    fn rows() -> Vec<Row> {
        vec![
            // 3 GB per run: 3000 GB/s ours, 2000 GB/s the twin's.
            Row::new(
                "copy <d2d> & co",
                Unit::GBps,
                3e9,
                Some(timing(1.0)),
                Some(timing(1.5)),
            ),
            // 2 TFLOP per run: 1 TFLOP/s ours, no reference.
            Row::new("sgemm", Unit::Tflops, 2e12, Some(timing(2000.0)), None),
            Row::new("launch", Unit::Micros, 0.0, Some(timing(0.002)), None),
            Row::failed("transpose", "twin mismatch"),
        ]
    }

    /// `(x, y, width, fill)` of every `<rect>` in the SVG.
    fn rects(svg: &str) -> Vec<(i32, i32, i32, String)> {
        let attr = |tag: &str, key: &str| {
            let start = tag.find(&format!(" {key}=\""))? + key.len() + 3;
            Some(tag[start..].split('"').next()?.to_string())
        };
        svg.split("<rect")
            .skip(1)
            .map(|t| {
                let n = |k| attr(t, k).unwrap().parse::<i32>().unwrap();
                (n("x"), n("y"), n("width"), attr(t, "fill").unwrap())
            })
            .collect()
    }

    #[test]
    fn only_measured_throughput_rows_get_bars() {
        let b = bars(&report());
        assert_eq!(b.len(), 2);
        assert_eq!((b[0].unit, b[1].unit), ("GB/s", "TFLOP/s"));
        assert!((b[0].ours - 3000.0).abs() < 1e-6);
        assert!((b[0].reference.unwrap() - 2000.0).abs() < 1e-6);
        assert!((b[1].ours - 1.0).abs() < 1e-9 && b[1].reference.is_none());
    }

    #[test]
    fn svg_bars_are_proportional_and_text_is_escaped() {
        let svg = svg("H100 \"sm_90\"", &bars(&report())).unwrap();
        let r = rects(&svg);
        // The background, then ours and the reference of the first row, then ours of the second.
        assert_eq!(r.len(), 4, "{svg}");
        let span = WIDTH as i32 - LEFT - RIGHT;
        assert_eq!((r[1].0, r[1].2), (LEFT, span));
        assert_eq!(r[1].3, "#3572B0");
        assert_eq!(r[2].2, (f64::from(span) * 2.0 / 3.0).round() as i32);
        assert_eq!(r[2].3, "#999999");
        assert_eq!(r[3].1, TOP + ROW_H);
        let texts: Vec<&str> = svg
            .split("<text")
            .skip(1)
            .map(|t| {
                t.split_once('>')
                    .unwrap()
                    .1
                    .split("</text>")
                    .next()
                    .unwrap()
                    .trim()
            })
            .collect();
        assert_eq!(
            texts,
            [
                "Ferrocuda (blue) vs nvcc twin / reference (grey)",
                "H100 &quot;sm_90&quot;",
                "copy &lt;d2d&gt; &amp; co",
                "3000.0 GB/s",
                "2000.0 GB/s",
                "ratio 1.500",
                "sgemm",
                "1.0 TFLOP/s",
            ]
        );
    }

    #[test]
    fn the_font_is_the_first_file_that_exists() {
        let dir = std::env::temp_dir().join(format!("xtask-font-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("a.ttf");
        std::fs::write(&f, b"x").unwrap();
        let missing = dir.join("missing.ttf");
        let s = |p: &Path| p.to_str().unwrap().to_string();
        let (fs, ms) = (s(&f), s(&missing));
        assert_eq!(find_font(None, &[&ms, &fs]), Some(f.clone()));
        assert_eq!(find_font(Some(missing.clone()), &[&fs]), Some(f.clone()));
        assert_eq!(find_font(Some(f.clone()), &[]), Some(f.clone()));
        assert_eq!(find_font(None, &[&ms]), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The PNG has the SVG's bars at the same places, and text (dark pixels) where the labels
    /// are. Needs a system font: on a machine without one, `write` skips the PNG and says so,
    /// which this checks instead.
    #[test]
    fn png_has_the_bars_and_the_labels() {
        let dir = std::env::temp_dir().join(format!("xtask-chart-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (written, note) = write(&dir, &report()).unwrap();
        let font = load_font();
        assert_eq!(written.len(), if font.is_ok() { 2 } else { 1 });
        assert_eq!(note.is_some(), font.is_err());
        if let Err(why) = font {
            eprintln!("no system font here ({why}); PNG skipped as designed");
            assert!(!dir.join("bench.png").exists());
            std::fs::remove_dir_all(&dir).unwrap();
            return;
        }
        let file = std::fs::File::open(dir.join("bench.png")).unwrap();
        let mut reader = png::Decoder::new(std::io::BufReader::new(file))
            .read_info()
            .unwrap();
        let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut pixels).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        let b = bars(&report());
        assert_eq!((info.width, info.height), (WIDTH, height(&b)));
        let at = |x: i32, y: i32| {
            let i = (y as usize * info.width as usize + x as usize) * 3;
            (pixels[i], pixels[i + 1], pixels[i + 2])
        };
        assert_eq!(at(LEFT + 10, TOP + 5), (0x35, 0x72, 0xb0));
        assert_eq!(at(LEFT + 10, TOP + BAR_H + 2 + 5), (0x99, 0x99, 0x99));
        assert_eq!(at(LEFT - 5, TOP + 5), (255, 255, 255));
        // The row name is drawn left of the bars.
        let dark = (10..LEFT - 10)
            .flat_map(|x| (TOP..TOP + ROW_H - 10).map(move |y| (x, y)))
            .filter(|&(x, y)| at(x, y).0 < 100)
            .count();
        assert!(dark > 30, "{dark} dark pixels in the first row's name");
    }
}
