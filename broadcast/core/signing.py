"""The studio's own signing key (Ed25519, via ``cryptography``): what anchors the as-run log outside it.

The key is made at the studio's first start and kept in the user's configuration folder
(``$GOUJI_STUDIO_KEY_DIR``, else ``$XDG_CONFIG_HOME/gouji-studio``, else ``~/.config/gouji-studio``):

* ``studio-ed25519.key`` — the private key (PKCS#8 PEM), created with mode 0600, never printed;
* ``studio-ed25519.pub`` — the public key (SubjectPublicKeyInfo PEM), what a sponsor is given
  (``python -m broadcast studio-key --export FILE``).

The key's **fingerprint** is ``SHA256:`` and the hex SHA-256 of the 32 raw public-key bytes; every
report prints it, so a reader can tell that the receipt in hand was signed by this studio's key.
"""

from __future__ import annotations

import base64
import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from broadcast.core.files import read_at_most
from broadcast.errors import GoujiError

__all__ = ["SigningError", "PublicKey", "StudioKey", "key_dir"]

PRIVATE_NAME = "studio-ed25519.key"
PUBLIC_NAME = "studio-ed25519.pub"
KEY_FILE_LIMIT = 64 * 1024  # a key file is a few hundred bytes


class SigningError(GoujiError):
    rule = "key"


def key_dir() -> Path:
    env = os.environ.get("GOUJI_STUDIO_KEY_DIR")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "gouji-studio"


@dataclass(frozen=True)
class PublicKey:
    raw: bytes  # the 32 raw Ed25519 public-key bytes

    @property
    def fingerprint(self) -> str:
        return "SHA256:" + hashlib.sha256(self.raw).hexdigest()

    @property
    def short(self) -> str:
        """The fingerprint's first 16 hex digits in groups of four (for a page's footer)."""
        h = hashlib.sha256(self.raw).hexdigest()
        return "SHA256:" + " ".join(h[i : i + 4] for i in range(0, 16, 4))

    @property
    def b64(self) -> str:
        return base64.b64encode(self.raw).decode()

    def pem(self) -> str:
        key = Ed25519PublicKey.from_public_bytes(self.raw)
        return key.public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
        ).decode()

    def verify(self, signature_b64: str, data: bytes) -> bool:
        try:
            sig = base64.b64decode(signature_b64, validate=True)
            Ed25519PublicKey.from_public_bytes(self.raw).verify(sig, data)
        except (InvalidSignature, ValueError):
            return False
        return True

    @classmethod
    def from_b64(cls, text: str) -> PublicKey:
        try:
            raw = base64.b64decode(text, validate=True)
        except ValueError:
            raw = b""
        if len(raw) != 32:
            raise SigningError(
                "key", "公钥格式不对（应为 32 字节 Ed25519）", "not an Ed25519 public key (32 bytes)"
            )
        return cls(raw)

    @classmethod
    def load(cls, path: str | Path) -> PublicKey:
        """A public key from a PEM file (``studio-key --export``) or a file holding its base64."""
        p = Path(path)
        try:
            data = read_at_most(p, KEY_FILE_LIMIT)  # /dev/zero too: never read on
        except OSError as exc:
            raise SigningError(
                "key", f"无法读取公钥（{exc.strerror}）", f"cannot read the key ({exc.strerror})", where=p
            ) from None
        if len(data) > KEY_FILE_LIMIT:
            raise SigningError("key", "公钥文件过大", "key file too large", where=p)
        if data.lstrip().startswith(b"-----BEGIN"):
            try:
                key = serialization.load_pem_public_key(data)
            except ValueError:
                key = None
            if not isinstance(key, Ed25519PublicKey):
                raise SigningError("key", "不是 Ed25519 公钥", "not an Ed25519 public key", where=p)
            return cls(key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw))
        try:
            return cls.from_b64(data.decode("ascii").strip())
        except (UnicodeDecodeError, SigningError):
            raise SigningError("key", "不是 Ed25519 公钥", "not an Ed25519 public key", where=p) from None


class StudioKey:
    """The studio's private key (sign) and its public half."""

    def __init__(self, private: Ed25519PrivateKey, path: Path | None = None) -> None:
        self._private = private
        self.path = path
        raw = private.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        self.public = PublicKey(raw)

    def __repr__(self) -> str:
        return f"<StudioKey {self.public.short}>"

    def sign(self, data: bytes) -> str:
        return base64.b64encode(self._private.sign(data)).decode()

    @classmethod
    def load_or_create(cls, folder: str | Path | None = None) -> StudioKey:
        """The studio's key, made here at the first start (private key file 0600)."""
        d = Path(folder) if folder is not None else key_dir()
        priv = d / PRIVATE_NAME
        if priv.exists():
            return cls.load(priv)
        try:
            d.mkdir(parents=True, exist_ok=True, mode=0o700)
            key = Ed25519PrivateKey.generate()
            pem = key.private_bytes(
                serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
            )
            fd = os.open(priv, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:  # another process made it first
            return cls.load(priv)
        except OSError as exc:
            raise SigningError(
                "key",
                f"无法创建演播室签名密钥（{exc.strerror}）",
                f"cannot create the studio key ({exc.strerror})",
                where=d,
            ) from None
        with os.fdopen(fd, "wb") as f:
            f.write(pem)
            f.flush()
            os.fsync(f.fileno())
        out = cls(key, priv)
        (d / PUBLIC_NAME).write_text(out.public.pem(), encoding="ascii")
        return out

    @classmethod
    def load(cls, path: str | Path) -> StudioKey:
        p = Path(path)
        try:
            data = read_at_most(p, KEY_FILE_LIMIT)  # /dev/zero too: never read on
            if p.stat().st_mode & 0o077:
                os.chmod(p, 0o600)  # a private key others could read is made the owner's alone
        except OSError as exc:
            raise SigningError(
                "key",
                f"无法读取演播室签名密钥（{exc.strerror}）",
                f"cannot read the studio key ({exc.strerror})",
                where=p,
            ) from None
        try:
            key = serialization.load_pem_private_key(data, password=None)
        except (ValueError, TypeError):
            key = None
        if not isinstance(key, Ed25519PrivateKey):
            raise SigningError(
                "key",
                "演播室签名密钥文件已损坏（不是 Ed25519 私钥）",
                "the studio key file is damaged (not Ed25519)",
                where=p,
            )
        return cls(key, p)
