package dev.agentsvc.client;

import java.lang.annotation.Annotation;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;

/** Questions about Java types that schema derivation and argument binding both ask. */
final class JavaTypes {
  private static final Set<Class<?>> INTEGERS = Set.of(
      byte.class, short.class, int.class, long.class,
      Byte.class, Short.class, Integer.class, Long.class, BigInteger.class);
  private static final Set<Class<?>> NUMBERS = Set.of(
      float.class, double.class, Float.class, Double.class, BigDecimal.class, Number.class);

  private JavaTypes() {}

  /** Returns the class of a type; Object for type variables and unbounded wildcards. */
  static Class<?> raw(Type type) {
    if (type instanceof Class<?> c) {
      return c;
    }
    if (type instanceof ParameterizedType p) {
      return (Class<?>) p.getRawType();
    }
    if (type instanceof GenericArrayType g) {
      return java.lang.reflect.Array.newInstance(raw(g.getGenericComponentType()), 0).getClass();
    }
    if (type instanceof WildcardType w) {
      return raw(w.getUpperBounds()[0]);
    }
    if (type instanceof TypeVariable<?> v) {
      return raw(v.getBounds()[0]);
    }
    return Object.class;
  }

  /** Returns the i-th type argument of a parameterized type, or Object when it is raw. */
  static Type argument(Type type, int i) {
    if (type instanceof ParameterizedType p && p.getActualTypeArguments().length > i) {
      Type arg = p.getActualTypeArguments()[i];
      if (arg instanceof WildcardType w) {
        return w.getUpperBounds()[0];
      }
      return arg;
    }
    return Object.class;
  }

  /** Returns the element type of an array type. */
  static Type component(Type type) {
    if (type instanceof GenericArrayType g) {
      return g.getGenericComponentType();
    }
    return raw(type).getComponentType();
  }

  static boolean isInteger(Class<?> c) {
    return INTEGERS.contains(c);
  }

  static boolean isNumber(Class<?> c) {
    return NUMBERS.contains(c);
  }

  static boolean isOptional(Class<?> c) {
    return c == Optional.class || c == OptionalInt.class || c == OptionalLong.class
        || c == OptionalDouble.class;
  }

  /**
   * Tells whether a parameter or property must be given: true unless its type is an Optional,
   * it carries {@code @Param(required = false)} or an annotation named {@code Nullable} (from
   * any library), but always for primitives.
   */
  static boolean required(Type type, AnnotatedElement... elements) {
    Class<?> c = raw(type);
    if (c.isPrimitive()) {
      return true;
    }
    if (isOptional(c)) {
      return false;
    }
    for (AnnotatedElement e : elements) {
      if (e == null) {
        continue;
      }
      Param p = e.getAnnotation(Param.class);
      if (p != null && !p.required()) {
        return false;
      }
      for (Annotation a : e.getAnnotations()) {
        if (a.annotationType().getSimpleName().equals("Nullable")) {
          return false;
        }
      }
    }
    return true;
  }

  /** Returns the {@link Param} of the first element that has one, or null. */
  static Param param(AnnotatedElement... elements) {
    for (AnnotatedElement e : elements) {
      if (e != null && e.getAnnotation(Param.class) != null) {
        return e.getAnnotation(Param.class);
      }
    }
    return null;
  }
}
