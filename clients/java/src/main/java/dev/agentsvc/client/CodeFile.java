package dev.agentsvc.client;

import com.google.protobuf.ByteString;
import dev.agentsvc.v1.File;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * A file given to executed code (an input file) or written by it (an output file), as ADK's
 * {@code File}. Immutable: the content is copied in and out.
 *
 * @param name the file's name, e.g. {@code data.csv}; not blank
 * @param mimeType its MIME type, e.g. {@code text/csv}; not blank
 * @param content its bytes
 */
public record CodeFile(String name, String mimeType, byte[] content) {
  /** Checks the fields and copies the content. */
  public CodeFile {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(mimeType, "mimeType");
    Objects.requireNonNull(content, "content");
    if (name.isBlank()) {
      throw new IllegalArgumentException("a code file's name is blank");
    }
    if (mimeType.isBlank()) {
      throw new IllegalArgumentException("code file " + name + ": the MIME type is blank");
    }
    content = content.clone();
  }

  /** Returns a text file, its content encoded as UTF-8, of type {@code text/plain}. */
  public static CodeFile text(String name, String text) {
    return new CodeFile(name, "text/plain", text.getBytes(StandardCharsets.UTF_8));
  }

  /** Returns a copy of the content. */
  @Override
  public byte[] content() {
    return content.clone();
  }

  /** Returns the content decoded as UTF-8. */
  public String contentText() {
    return new String(content, StandardCharsets.UTF_8);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CodeFile f && name.equals(f.name) && mimeType.equals(f.mimeType)
        && Arrays.equals(content, f.content);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, mimeType, Arrays.hashCode(content));
  }

  @Override
  public String toString() {
    return "CodeFile[name=" + name + ", mimeType=" + mimeType + ", " + content.length + " bytes]";
  }

  static CodeFile of(File file) {
    return new CodeFile(file.getName(), file.getMimeType(), file.getContent().toByteArray());
  }

  File toProto() {
    return File.newBuilder().setName(name).setMimeType(mimeType)
        .setContent(ByteString.copyFrom(content)).build();
  }
}
