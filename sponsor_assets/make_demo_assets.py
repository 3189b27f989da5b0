#!/usr/bin/env python3
"""Generate the demo sponsors' placeholder logos (PNG) and brand films (MP4) in sponsor_assets/demo/.

    .venv/bin/python sponsor_assets/make_demo_assets.py [--force]

Logos are drawn with Pillow in Noto Sans CJK; films are slates rendered frame by frame with Pillow
(name, slogan, a running progress bar and the remaining seconds) and encoded by ffmpeg as small
H.264 MP4s (320×180, 5 fps source, faststart, no audio), each well under 200 KB. The outputs are
committed; run this again only to change them. Output is reproducible (bit-exact flags).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

HERE = Path(__file__).resolve().parent
DEMO = HERE / "demo"
FONT_FILES = (
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
)


@dataclass(frozen=True)
class Brand:
    id: str
    name: str
    slogan: str
    color: tuple[int, int, int]
    accent: tuple[int, int, int]


BRANDS = (
    Brand("xiaodangjia", "小当家", "万家便利店 一个小当家", (200, 30, 36), (255, 214, 0)),
    Brand("yiheyuan", "沂河源矿泉水", "沂蒙山水 甘甜一口", (20, 100, 190), (255, 255, 255)),
    Brand("shunhe", "顺和家电", "顺心顺意 和美之家", (0, 130, 90), (240, 240, 200)),
    Brand("jinyimeng", "金沂蒙酒业", "好酒敬英雄", (150, 100, 20), (255, 220, 120)),
    Brand("langya", "琅琊煎饼坊", "一张煎饼 一口乡情", (220, 110, 20), (255, 245, 220)),
    Brand("luxin", "鲁信汽车城", "临沂人的购车首选", (20, 40, 90), (120, 200, 255)),
    Brand("babao", "八宝豆豉", "临沂老味道", (110, 50, 30), (250, 200, 150)),
    Brand("jiaxin", "嘉信驾校", "学车就到嘉信", (90, 40, 140), (255, 230, 120)),
    Brand("mengshan", "蒙山云雾茶", "高山云雾出好茶", (40, 110, 60), (220, 250, 210)),
)

# (film id, brand id, seconds)
FILMS = (
    ("xiaodangjia_15s", "xiaodangjia", 15),
    ("yiheyuan_15s", "yiheyuan", 15),
    ("shunhe_10s", "shunhe", 10),
    ("jinyimeng_10s", "jinyimeng", 10),
    ("langya_10s", "langya", 10),
    ("luxin_15s", "luxin", 15),
    ("babao_15s", "babao", 15),
    ("jiaxin_5s", "jiaxin", 5),
)


def font(size: int, bold: bool = True) -> ImageFont.FreeTypeFont:
    path = FONT_FILES[0] if bold else FONT_FILES[1]
    if not Path(path).exists():
        sys.exit(f"缺少字体 {path}：apt-get install fonts-noto-cjk")
    return ImageFont.truetype(path, size=size, index=2)  # index 2 = SC (simplified Chinese)


def _fit(
    draw: ImageDraw.ImageDraw, text: str, width: int, start: int, bold: bool = True
) -> ImageFont.FreeTypeFont:
    size = start
    while size > 10:
        f = font(size, bold)
        if draw.textlength(text, font=f) <= width:
            return f
        size -= 2
    return font(10, bold)


def make_logo(b: Brand, out: Path) -> None:
    w, h = 400, 160
    im = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=28, fill=b.color + (255,))
    d.ellipse((18, 20, 138, 140), fill=b.accent + (255,))
    d.text((78, 80), b.name[0], font=font(76), fill=b.color + (255,), anchor="mm")
    f = _fit(d, b.name, w - 170, 52)
    d.text((152, 66), b.name, font=f, fill=(255, 255, 255, 255), anchor="lm")
    fs = _fit(d, b.slogan, w - 170, 24, bold=False)
    d.text((152, 118), b.slogan, font=fs, fill=b.accent + (255,), anchor="lm")
    im.save(out, optimize=True)


def make_film(b: Brand, film_id: str, seconds: int, out: Path, ffmpeg: str) -> None:
    fps = 5
    w, h = 320, 180
    with tempfile.TemporaryDirectory() as tmp:
        logo = Image.open(DEMO / "logos" / f"{b.id}.png").convert("RGBA").resize((200, 80))
        title_f, slogan_f, small_f = font(22), font(16, bold=False), font(12, bold=False)
        for i in range(seconds * fps):
            im = Image.new("RGB", (w, h), b.color)
            d = ImageDraw.Draw(im)
            d.rectangle((0, 0, w, 26), fill=(0, 0, 0))
            d.text(
                (8, 13), f"{b.name} {seconds}秒品牌宣传片", font=small_f, fill=(255, 255, 255), anchor="lm"
            )
            left = seconds - i // fps
            d.text((w - 8, 13), f"{left:02d}", font=small_f, fill=b.accent, anchor="rm")
            im.paste(logo, ((w - 200) // 2, 36), logo)
            d.text((w // 2, 134), b.slogan, font=title_f, fill=(255, 255, 255), anchor="mm")
            d.text((w // 2, 158), "演示素材 · 非真实广告", font=slogan_f, fill=b.accent, anchor="mm")
            d.rectangle((0, h - 6, int(w * (i + 1) / (seconds * fps)), h), fill=b.accent)
            im.save(Path(tmp) / f"f{i:04d}.png")
        cmd = [
            ffmpeg,
            "-y",
            "-loglevel",
            "error",
            "-framerate",
            str(fps),
            "-i",
            str(Path(tmp) / "f%04d.png"),
            "-c:v",
            "libx264",
            "-preset",
            "slow",
            "-crf",
            "30",
            "-tune",
            "stillimage",
            "-r",
            "25",
            "-pix_fmt",
            "yuv420p",
            "-t",
            str(seconds),
            "-movflags",
            "+faststart",
            "-map_metadata",
            "-1",
            "-fflags",
            "+bitexact",
            "-flags:v",
            "+bitexact",
            "-metadata",
            f"title={b.name} {seconds}s",
            str(out),
        ]
        subprocess.run(cmd, check=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--force", action="store_true", help="regenerate files that already exist")
    args = ap.parse_args(argv)
    (DEMO / "logos").mkdir(parents=True, exist_ok=True)
    (DEMO / "films").mkdir(parents=True, exist_ok=True)
    brands = {b.id: b for b in BRANDS}
    for b in BRANDS:
        out = DEMO / "logos" / f"{b.id}.png"
        if args.force or not out.exists():
            make_logo(b, out)
            print(f"logo  {out.relative_to(HERE)}  {out.stat().st_size // 1024} KB")
    ffmpeg = shutil.which("ffmpeg")
    if ffmpeg is None:
        print("缺少 ffmpeg（apt-get install ffmpeg）：宣传片未生成", file=sys.stderr)
        return 1
    for film_id, brand_id, seconds in FILMS:
        out = DEMO / "films" / f"{film_id}.mp4"
        if args.force or not out.exists():
            make_film(brands[brand_id], film_id, seconds, out, ffmpeg)
            print(f"film  {out.relative_to(HERE)}  {seconds}s  {out.stat().st_size // 1024} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
