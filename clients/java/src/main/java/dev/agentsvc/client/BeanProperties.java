package dev.agentsvc.client;

import java.lang.annotation.Annotation;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The JSON properties of a plain Java class (not a record): public fields and public getters and
 * setters. {@link Values}, argument binding and schema derivation share this view of a class.
 */
final class BeanProperties {
  private BeanProperties() {}

  /** One property; getter, setter and field may each be null, not all three. */
  record Property(String name, Method getter, Method setter, Field field) {
    boolean readable() {
      return getter != null || field != null;
    }

    boolean writable() {
      return setter != null || (field != null && !Modifier.isFinal(field.getModifiers()));
    }

    Object read(Object target) throws IllegalAccessException, InvocationTargetException {
      if (getter != null) {
        return getter.invoke(target);
      }
      return field != null ? field.get(target) : null;
    }

    void write(Object target, Object value)
        throws IllegalAccessException, InvocationTargetException {
      if (setter != null) {
        setter.invoke(target, value);
      } else if (writable()) {
        field.set(target, value);
      }
    }

    /** Returns the declared type: the setter's parameter, else the getter's or field's type. */
    Type type() {
      if (setter != null) {
        return setter.getGenericParameterTypes()[0];
      }
      if (getter != null) {
        return getter.getGenericReturnType();
      }
      return field.getGenericType();
    }

    /** Returns the annotation on the field, getter or setter, in that order, or null. */
    <A extends Annotation> A annotation(Class<A> kind) {
      for (AnnotatedElement e : new AnnotatedElement[] {field, getter, setter}) {
        if (e != null && e.getAnnotation(kind) != null) {
          return e.getAnnotation(kind);
        }
      }
      return null;
    }
  }

  /**
   * Returns the properties of a class: public fields in declaration order (superclass fields
   * after), then the other getter and setter properties sorted by name, so the order is stable
   * across JVMs.
   */
  static List<Property> of(Class<?> type) {
    Map<String, Field> fields = new LinkedHashMap<>();
    for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
      for (Field f : c.getDeclaredFields()) {
        int m = f.getModifiers();
        if (Modifier.isPublic(m) && !Modifier.isStatic(m) && !Modifier.isTransient(m)) {
          fields.putIfAbsent(f.getName(), f);
        }
      }
    }
    Map<String, Method> getters = new TreeMap<>();
    Map<String, Method> setters = new TreeMap<>();
    for (Method m : type.getMethods()) {
      if (Modifier.isStatic(m.getModifiers()) || m.getDeclaringClass() == Object.class
          || m.isBridge() || m.isSynthetic()) {
        continue;
      }
      String n = m.getName();
      if (m.getParameterCount() == 0 && m.getReturnType() != void.class) {
        if (n.startsWith("get") && n.length() > 3) {
          getters.putIfAbsent(decapitalize(n.substring(3)), m);
        } else if (n.startsWith("is") && n.length() > 2
            && (m.getReturnType() == boolean.class || m.getReturnType() == Boolean.class)) {
          getters.putIfAbsent(decapitalize(n.substring(2)), m);
        }
      } else if (m.getParameterCount() == 1 && n.startsWith("set") && n.length() > 3) {
        setters.putIfAbsent(decapitalize(n.substring(3)), m);
      }
    }
    Map<String, Property> out = new LinkedHashMap<>();
    fields.forEach((n, f) -> out.put(n, new Property(n, getters.get(n), setters.get(n), f)));
    TreeMap<String, Property> rest = new TreeMap<>();
    for (String n : getters.keySet()) {
      rest.putIfAbsent(n, new Property(n, getters.get(n), setters.get(n), null));
    }
    for (String n : setters.keySet()) {
      rest.putIfAbsent(n, new Property(n, null, setters.get(n), null));
    }
    rest.forEach(out::putIfAbsent);
    return new ArrayList<>(out.values());
  }

  /** Applies the JavaBeans rule: "URL" stays, "Name" becomes "name". */
  private static String decapitalize(String s) {
    if (s.length() > 1 && Character.isUpperCase(s.charAt(0))
        && Character.isUpperCase(s.charAt(1))) {
      return s;
    }
    return Character.toLowerCase(s.charAt(0)) + s.substring(1);
  }
}
