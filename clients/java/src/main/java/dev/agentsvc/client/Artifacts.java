package dev.agentsvc.client;

import com.google.protobuf.ByteString;
import dev.agentsvc.v1.ArtifactVersion;
import dev.agentsvc.v1.Blob;
import dev.agentsvc.v1.Part;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * Builds and reads artifacts, the versioned files of a session (and, under names starting
 * {@value #USER_PREFIX}, of its user), as ADK's {@code types.Part} artifacts: inline data with a
 * MIME type, or text. Stateless and thread-safe.
 *
 * <pre>{@code
 * Part pdf = Artifacts.inlineData(bytes, "application/pdf");
 * Part note = Artifacts.textPart("Remember the milk.");
 * Optional<Part> loaded = client.loadArtifact(app, user, session, "report.pdf");
 * byte[] data = loaded.map(Artifacts::bytes).orElse(null);
 * }</pre>
 */
public final class Artifacts {
  /** The prefix of the names of artifacts that belong to the user, seen from all its sessions. */
  public static final String USER_PREFIX = "user:";

  /** The MIME type the service reports for a text artifact. */
  public static final String TEXT_MIME_TYPE = "text/plain";

  private Artifacts() {}

  /**
   * Returns an artifact of inline data, as ADK's {@code types.Part.from_bytes}.
   *
   * @param data the bytes, copied
   * @param mimeType their MIME type, e.g. {@code "application/pdf"}
   */
  public static Part inlineData(byte[] data, String mimeType) {
    Objects.requireNonNull(data, "data");
    Objects.requireNonNull(mimeType, "mimeType");
    return Part.newBuilder()
        .setInlineData(Blob.newBuilder().setMimeType(mimeType).setData(ByteString.copyFrom(data)))
        .build();
  }

  /**
   * Returns an artifact of text, as ADK's {@code types.Part.from_text}; the service stores it as
   * {@value #TEXT_MIME_TYPE} and loads it back as text.
   *
   * @param text the text (the service refuses an empty one)
   */
  public static Part textPart(String text) {
    Objects.requireNonNull(text, "text");
    return Part.newBuilder().setText(text).build();
  }

  /**
   * Returns the content of an artifact as bytes: its inline data, or its text in UTF-8.
   *
   * @param artifact a loaded artifact
   */
  public static byte[] bytes(Part artifact) {
    if (artifact.hasInlineData()) {
      return artifact.getInlineData().getData().toByteArray();
    }
    return artifact.getText().getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Returns the content of an artifact as text: its text, or its inline data decoded as UTF-8
   * (malformed bytes replaced).
   *
   * @param artifact a loaded artifact
   */
  public static String text(Part artifact) {
    if (artifact.hasInlineData()) {
      return artifact.getInlineData().getData().toStringUtf8();
    }
    return artifact.getText();
  }

  /**
   * Returns the MIME type of an artifact: its inline data's, or {@value #TEXT_MIME_TYPE} for
   * text.
   */
  public static String mimeType(Part artifact) {
    return artifact.hasInlineData() ? artifact.getInlineData().getMimeType() : TEXT_MIME_TYPE;
  }

  /** Returns whether an artifact name belongs to the user ({@code user:...}) and not a session. */
  public static boolean isUserScoped(String filename) {
    return filename.startsWith(USER_PREFIX);
  }

  /** Returns when a version was saved; the service reports it to the microsecond. */
  public static Instant createTime(ArtifactVersion version) {
    double seconds = version.getCreateTime();
    long whole = (long) Math.floor(seconds);
    long micros = Math.round((seconds - whole) * 1e6);
    return Instant.ofEpochSecond(whole).plusNanos(micros * 1000);
  }

  /**
   * Returns the custom metadata of a version as plain Java values (see {@link Values#toMap}).
   */
  public static Map<String, Object> customMetadata(ArtifactVersion version) {
    return Values.toMap(version.getCustomMetadata());
  }

  /**
   * Checks what a tool or a callback saves: a name and inline data or a non-empty text, as the
   * service (and ADK) require; the service checks the name further.
   */
  static void checkSave(String filename, Part artifact) {
    Objects.requireNonNull(filename, "filename");
    Objects.requireNonNull(artifact, "artifact");
    if (filename.isEmpty()) {
      throw new IllegalArgumentException("filename must not be empty.");
    }
    if (!artifact.hasInlineData() && artifact.getText().isEmpty()) {
      throw new IllegalArgumentException("Artifact must have either inline_data or text.");
    }
  }
}
