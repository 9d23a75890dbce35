import type { MediaKind, MediaValue } from "../util/index.js";

/**
 * Media arguments (`image`, `audio`, `pdf`, `video` parameters). Instances are `util`'s `MediaValue`
 * data, so the prompt renderer and the provider adapters read them without knowing these classes.
 */
abstract class Media implements MediaValue {
  readonly kind = "media" as const;
  abstract readonly type: MediaKind;
  readonly url?: string;
  readonly base64?: string;
  readonly mediaType?: string;

  protected constructor(source: {
    url?: string | undefined;
    base64?: string | undefined;
    mediaType?: string | undefined;
  }) {
    if (source.url !== undefined) this.url = source.url;
    if (source.base64 !== undefined) this.base64 = source.base64;
    if (source.mediaType !== undefined) this.mediaType = source.mediaType;
  }

  /** Whether this refers to a URL (rather than carrying the bytes). */
  isUrl(): boolean {
    return this.url !== undefined;
  }

  toJSON(): MediaValue {
    return {
      kind: "media",
      type: this.type,
      ...(this.url !== undefined ? { url: this.url } : {}),
      ...(this.base64 !== undefined ? { base64: this.base64 } : {}),
      ...(this.mediaType !== undefined ? { mediaType: this.mediaType } : {}),
    };
  }
}

function stripDataUrl(base64: string): string {
  // `data:image/png;base64,AAAA` is a common copy-paste; the payload is what follows the comma.
  const comma = base64.startsWith("data:") ? base64.indexOf(",") : -1;
  return comma >= 0 ? base64.slice(comma + 1) : base64;
}

/** An image argument. */
export class Image extends Media {
  readonly type = "image" as const;
  /** An image at a URL; `mediaType` (e.g. `image/png`) is sent when the provider wants it. */
  static fromUrl(url: string, mediaType?: string): Image {
    return new Image({ url, mediaType });
  }
  /** An image from base64 bytes (a `data:` URL prefix is accepted and removed). */
  static fromBase64(mediaType: string, base64: string): Image {
    return new Image({ base64: stripDataUrl(base64), mediaType });
  }
}

/** An audio argument. */
export class Audio extends Media {
  readonly type = "audio" as const;
  static fromUrl(url: string, mediaType?: string): Audio {
    return new Audio({ url, mediaType });
  }
  static fromBase64(mediaType: string, base64: string): Audio {
    return new Audio({ base64: stripDataUrl(base64), mediaType });
  }
}

/** A PDF document argument. */
export class Pdf extends Media {
  readonly type = "pdf" as const;
  static fromUrl(url: string, mediaType = "application/pdf"): Pdf {
    return new Pdf({ url, mediaType });
  }
  /**
   * A PDF from base64 bytes: `fromBase64(base64)` as in BAML (the type is `application/pdf`), or
   * `fromBase64(mediaType, base64)` like the other media.
   */
  static fromBase64(base64: string): Pdf;
  static fromBase64(mediaType: string, base64: string): Pdf;
  static fromBase64(first: string, second?: string): Pdf {
    return second === undefined
      ? new Pdf({ base64: stripDataUrl(first), mediaType: "application/pdf" })
      : new Pdf({ base64: stripDataUrl(second), mediaType: first });
  }
}

/** A video argument. */
export class Video extends Media {
  readonly type = "video" as const;
  static fromUrl(url: string, mediaType?: string): Video {
    return new Video({ url, mediaType });
  }
  static fromBase64(mediaType: string, base64: string): Video {
    return new Video({ base64: stripDataUrl(base64), mediaType });
  }
}
