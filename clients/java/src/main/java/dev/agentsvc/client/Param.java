package dev.agentsvc.client;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Describes a parameter of a {@link Tool} method, or a property of a record or bean used as a
 * parameter type, in the JSON schema given to the model.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.PARAMETER, ElementType.FIELD, ElementType.METHOD, ElementType.RECORD_COMPONENT})
public @interface Param {
  /** The description, for the model. */
  String value() default "";

  /**
   * The name in the schema; by default the Java name (for method parameters this needs classes
   * compiled with {@code -parameters}).
   */
  String name() default "";

  /**
   * Whether the model must pass the value. Defaults to true, except for {@link java.util.Optional}
   * values; primitives are always required.
   */
  boolean required() default true;
}
