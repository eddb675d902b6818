package io.dynarestore.contracts;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

/**
 * Builds random, valid instances of message records by reflection, from a seeded generator:
 * every component gets a value of its type, shaped by its name where the contract constrains it.
 */
final class RandomMessages {

    private static final String[] REGIONS = {"us-east-1", "eu-west-2", "ap-southeast-1"};
    private final Random random;

    RandomMessages(long seed) {
        this.random = new Random(seed);
    }

    <T> T next(Class<T> type) {
        return type.cast(value(type, type, "root"));
    }

    private Object value(Class<?> raw, Type generic, String name) {
        if (raw.isSealed()) {
            Class<?>[] permitted = raw.getPermittedSubclasses();
            return value(permitted[random.nextInt(permitted.length)], null, name);
        }
        if (raw.isRecord()) {
            return record(raw, name);
        }
        if (raw.isEnum()) {
            Object[] constants = raw.getEnumConstants();
            return constants[random.nextInt(constants.length)];
        }
        if (raw == String.class) {
            return string(name);
        }
        if (raw == int.class || raw == Integer.class) {
            return name.equals("schemaVersion")
                    ? 1
                    : java.util.Set.of("segmentCount", "readSharePercent", "segments", "itemsPerFile", "pageLimit")
                                    .contains(name)
                            ? 1 + random.nextInt(100)
                            : name.equals("shardGroups") || name.equals("parts")
                                    ? 1 + random.nextInt(32)
                                    : random.nextInt(1000);
        }
        if (raw == long.class || raw == Long.class) {
            return name.equals("writeUnits") ? 1L + random.nextInt(40_000) : 1L + random.nextInt(Integer.MAX_VALUE - 1);
        }
        if (raw == double.class || raw == Double.class) {
            return name.equals("percent") ? random.nextInt(1001) / 10.0 : random.nextInt(1_000_000) / 1000.0;
        }
        if (raw == boolean.class || raw == Boolean.class) {
            return random.nextBoolean();
        }
        if (raw == Instant.class) {
            return Instant.ofEpochMilli(1_700_000_000_000L + random.nextInt(Integer.MAX_VALUE));
        }
        if (raw == List.class) {
            Type element = ((ParameterizedType) generic).getActualTypeArguments()[0];
            int n = name.equals("keyAttributes") || name.equals("keyTypes")
                    ? 1 + random.nextInt(2)
                    : name.equals("values") ? random.nextInt(3) : 1 + random.nextInt(3);
            var list = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                list.add(value(rawOf(element), element, singular(name)));
            }
            return list;
        }
        if (raw == Map.class) {
            Type[] args = ((ParameterizedType) generic).getActualTypeArguments();
            var map = new LinkedHashMap<>();
            int n = random.nextInt(4);
            for (int i = 0; i < n; i++) {
                Object key =
                        rawOf(args[0]) == Integer.class ? (Object) random.nextInt(100) : "k" + random.nextInt(1000);
                map.put(key, value(rawOf(args[1]), args[1], name));
            }
            return map;
        }
        throw new IllegalArgumentException("no generator for " + raw + " (" + name + ")");
    }

    private Object record(Class<?> type, String path) {
        RecordComponent[] components = type.getRecordComponents();
        Object[] args = new Object[components.length];
        Class<?>[] types = new Class<?>[components.length];
        for (int i = 0; i < components.length; i++) {
            types[i] = components[i].getType();
            String name = components[i].getName();
            String qualified = type.getSimpleName() + "." + name;
            String nested = path + "." + name;
            args[i] = value(
                    components[i].getType(),
                    components[i].getGenericType(),
                    OWNED.contains(nested) ? nested : OWNED.contains(qualified) ? qualified : name);
        }
        try {
            var ctor = type.getDeclaredConstructor(types);
            ctor.setAccessible(true);
            return ctor.newInstance(args);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    private static final java.util.Set<String> OWNED =
            java.util.Set.of("File.format", "AttributeFilter.type", "skipKeys.format");

    private String string(String name) {
        switch (name) {
            case "File.format":
                return "CSV";
            case "cron":
                return null; // every schedules; a backup schedule is every or cron, and every is filled in

            case "skipKeys.format":
                return "KEY_HASHES";
            case "AttributeFilter.type":
                return new String[] {"S", "N", "B", "BOOL", "NULL"}[random.nextInt(5)];
            case "account":
                return String.format("%012d", (long) random.nextInt(Integer.MAX_VALUE));
            case "region":
                return REGIONS[random.nextInt(REGIONS.length)];
            case "table":
            case "tableName":
                return "tbl_" + random.nextInt(100000);
            case "restoreId":
            case "eventId":
                return UUID.randomUUID().toString();
            case "type":
                return "RestoreRequested";
            case "format":
                return "DYNAMODB_JSON";
            case "pointInTime":
                return "latest";
            case "until":
                return "2026-11-30T10:15:42Z";
            case "onConflict":
                return random.nextBoolean() ? "LEAVE" : "OVERWRITE";
            case "backupId":
                return "20261130T101500Z-" + Integer.toHexString(random.nextInt());
            case "condition":
                return "EqualTo";
            case "keyType":
                return new String[] {"S", "N", "B"}[random.nextInt(3)];
            case "email":
            case "emails":
            case "recipient":
            case "recipients":
                return "user" + random.nextInt(100) + "@example.com";
            case "webhook":
            case "webhooks":
                return "https://hooks.example.com/" + random.nextInt(100);
            case "sha256": {
                var hex = new StringBuilder();
                for (int i = 0; i < 64; i++) {
                    hex.append("0123456789abcdef".charAt(random.nextInt(16)));
                }
                return hex.toString();
            }
            case "bucket":
                return "vault";
            case "every":
            case "retention":
            case "flushEvery":
                return new String[] {"PT1H", "P35D", "PT15M", "PT30S", "P1DT12H"}[random.nextInt(5)];
            case "exportId":
                return "cap-" + Integer.toHexString(random.nextInt());
            case "token":
                return "t" + UUID.randomUUID().toString().replace("-", "");
            default:
                return "v" + random.nextInt(100000);
        }
    }

    private static String singular(String name) {
        return name.endsWith("s") ? name.substring(0, name.length() - 1) : name;
    }

    private static Class<?> rawOf(Type type) {
        return type instanceof ParameterizedType p ? (Class<?>) p.getRawType() : (Class<?>) type;
    }

    static Map<String, Object> asMap(Object... kv) {
        var m = new LinkedHashMap<String, Object>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }
}
