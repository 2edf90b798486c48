import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Stands in for GraalVM's {@code native-image} driver, which no registry serves. It turns the driver options
 * Quarkus and the libraries' META-INF/native-image files use into options of the image builder
 * (NativeImageGeneratorRunner, from Maven Central's svm jars) and runs the builder on this home's JDK.
 * It knows only the options seen in Ferry's builds: an unknown one stops the build, naming it.
 * Run through the JDK source launcher by bin/native-image; the home is the parent of bin/.
 */
public final class NativeImageDriver {

    /** What {@code --version} prints: Quarkus parses these three lines. "Mandrel" is only a label here. */
    static final String VENDOR_VERSION = "Mandrel-25.0.2.0-Final";
    static final String BUILDER_VERSION = "25.0.2";

    final Path home;
    final List<String> builderJvmOptions = new ArrayList<>();
    final List<String> builderOptions = new ArrayList<>();
    final List<Path> imageClassPath = new ArrayList<>();
    final List<Pattern[]> excludedConfig = new ArrayList<>();
    final List<String> positional = new ArrayList<>();
    String mainClass;
    boolean jarGiven;
    String imageName;
    Path imageDir = Path.of("").toAbsolutePath();

    NativeImageDriver(Path home) {
        this.home = home;
    }

    public static void main(String[] args) throws Exception {
        Path home = Path.of(System.getProperty("ferry.native.home", System.getProperty("java.home")));
        if (List.of(args).contains("--version")) {
            String jdk = Runtime.version().toString();
            System.out.println("native-image " + BUILDER_VERSION + " 2026-01-20");
            System.out.println("OpenJDK Runtime Environment " + VENDOR_VERSION + " (build " + jdk + ")");
            System.out.println("OpenJDK 64-Bit Server VM " + VENDOR_VERSION + " (build " + jdk + ", mixed mode)");
            return;
        }
        NativeImageDriver driver = new NativeImageDriver(home);
        driver.parse(List.of(args), "command line");
        driver.placePositionalArguments();
        driver.readLibraryConfiguration();
        System.exit(driver.runBuilder());
    }

    /** Translates driver options; {@code origin} names where they came from, for the error message. */
    void parse(List<String> args, String origin) throws IOException {
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.isBlank()) {
                continue;
            } else if (a.startsWith("-J")) {
                builderJvmOptions.add(a.substring(2));
            } else if (a.startsWith("-H:") || a.startsWith("-R:")) {
                builderOptions.add(a);
            } else if (a.startsWith("-D")) {
                builderJvmOptions.add(a); // build-time system properties live in the builder JVM
            } else if (a.equals("-jar")) {
                readJar(Path.of(args.get(++i)).toAbsolutePath());
            } else if (a.equals("-cp") || a.equals("-classpath") || a.equals("--class-path")) {
                for (String entry : args.get(++i).split(":")) {
                    if (!entry.isEmpty()) imageClassPath.add(Path.of(entry).toAbsolutePath());
                }
            } else if (a.equals("-o")) {
                setOutput(args.get(++i));
            } else if (a.startsWith("--features=")) {
                builderOptions.add("-H:Features=" + value(a));
            } else if (a.equals("--no-fallback")) {
                builderOptions.add("-H:FallbackThreshold=0");
            } else if (a.equals("--link-at-build-time")) {
                builderOptions.add("-H:LinkAtBuildTime=");
            } else if (a.startsWith("--link-at-build-time=")) {
                builderOptions.add("-H:LinkAtBuildTime=" + value(a));
            } else if (a.startsWith("--enable-url-protocols=")) {
                builderOptions.add("-H:EnableURLProtocols=" + value(a));
            } else if (a.equals("--enable-http") || a.equals("--enable-https")) {
                builderOptions.add("-H:EnableURLProtocols=" + a.substring("--enable-".length()));
            } else if (a.equals("--enable-all-security-services")) {
                continue; // on by default since GraalVM 21
            } else if (a.startsWith("--enable-monitoring")) {
                builderOptions.add("-H:EnableMonitoringFeatures=" + (a.contains("=") ? value(a) : "all"));
            } else if (a.startsWith("--enable-native-access=")) {
                builderOptions.add("-H:EnableNativeAccess=" + value(a));
            } else if (a.startsWith("--initialize-at-run-time=")) {
                builderOptions.add(classInitialization(value(a), "run_time"));
            } else if (a.startsWith("--initialize-at-build-time")) {
                builderOptions.add(classInitialization(a.contains("=") ? value(a) : "", "build_time"));
            } else if (a.startsWith("--trace-object-instantiation=")) {
                builderOptions.add("-H:TraceObjectInstantiation=" + value(a));
            } else if (a.startsWith("--report-unsupported-elements-at-runtime")) {
                builderOptions.add("-H:+ReportUnsupportedElementsAtRuntime");
            } else if (a.startsWith("-march=")) {
                builderOptions.add("-H:March=" + value(a));
            } else if (a.startsWith("-O")) {
                builderOptions.add("-H:Optimize=" + a.substring(2));
            } else if (a.startsWith("--gc=")) {
                builderOptions.add(value(a).equals("serial") ? "-H:+UseSerialGC" : "-H:+Use" + value(a) + "GC");
            } else if (a.equals("--exclude-config")) {
                excludedConfig.add(new Pattern[] {Pattern.compile(args.get(i + 1)), Pattern.compile(args.get(i + 2))});
                i += 2;
            } else if (a.startsWith("--add-exports=") || a.startsWith("--add-opens=") || a.startsWith("--add-reads=")) {
                builderJvmOptions.add(a); // the image's classes are analysed in the builder JVM
            } else if (a.equals("--verbose") || a.equals("--native-image-info") || a.equals("--silent")) {
                continue;
            } else if (a.equals("--strict-image-heap") || a.equals("--allow-incomplete-classpath")) {
                continue; // the default in GraalVM 25, or removed
            } else if (a.equals("--static") || a.equals("--shared") || a.startsWith("--libc=")) {
                throw new IllegalArgumentException(a + " (" + origin + "): this toolchain builds dynamically linked executables only");
            } else if (!a.startsWith("-") && origin.equals("command line")) {
                positional.add(a); // the main class and/or the image name, told apart once -jar is known

            } else {
                throw new IllegalArgumentException("native-image option " + a + " (" + origin
                        + ") is not known to this toolchain's driver stand-in: add its translation to NativeImageDriver.parse");
            }
        }
    }

    /** "native-image [options] class [imagename]" or "native-image [options] -jar jarfile [imagename]". */
    void placePositionalArguments() {
        List<String> rest = new ArrayList<>(positional);
        if (!jarGiven && !rest.isEmpty()) mainClass = rest.remove(0);
        if (!rest.isEmpty()) imageName = rest.remove(0);
        if (!rest.isEmpty()) throw new IllegalArgumentException("native-image: unexpected arguments " + rest);
    }

    static String value(String option) {
        return option.substring(option.indexOf('=') + 1);
    }

    static String classInitialization(String classes, String when) {
        return "-H:ClassInitialization=" + Stream.of(classes.split(",", -1)).map(c -> c + ":" + when).collect(Collectors.joining(","));
    }

    void setOutput(String output) {
        Path p = Path.of(output).toAbsolutePath();
        imageDir = p.getParent();
        imageName = p.getFileName().toString();
    }

    /** {@code -jar}: the jar, its Class-Path entries (relative to the jar), Main-Class and Add-Opens. */
    void readJar(Path jar) throws IOException {
        jarGiven = true;
        imageClassPath.add(jar);
        try (JarFile jf = new JarFile(jar.toFile())) {
            Manifest m = jf.getManifest();
            if (m == null) return;
            var attributes = m.getMainAttributes();
            if (mainClass == null) mainClass = attributes.getValue("Main-Class");
            String cp = attributes.getValue("Class-Path");
            if (cp != null) {
                for (String entry : cp.trim().split("\\s+")) {
                    if (!entry.isEmpty()) imageClassPath.add(jar.getParent().resolve(entry).normalize());
                }
            }
            String opens = attributes.getValue("Add-Opens");
            if (opens != null) {
                for (String o : opens.trim().split("\\s+")) builderJvmOptions.add("--add-opens=" + o + "=ALL-UNNAMED");
            }
        }
        if (imageName == null) {
            imageName = jar.getFileName().toString().replaceFirst("\\.jar$", "");
        }
    }

    /** META-INF/native-image/** of every class-path entry: Args of native-image.properties, and the JSON configuration. */
    void readLibraryConfiguration() throws IOException {
        for (Path entry : List.copyOf(imageClassPath)) {
            if (Files.isRegularFile(entry) && entry.toString().endsWith(".jar")) {
                try (JarFile jf = new JarFile(entry.toFile())) {
                    List<String> names = jf.stream().map(e -> e.getName())
                            .filter(n -> n.startsWith("META-INF/native-image/") && !n.endsWith("/")).sorted().toList();
                    for (String name : names) {
                        try (InputStream in = jf.getInputStream(jf.getEntry(name))) {
                            readConfigurationFile(entry, name, in);
                        }
                    }
                }
            } else if (Files.isDirectory(entry.resolve("META-INF/native-image"))) {
                List<Path> files;
                try (Stream<Path> s = Files.walk(entry.resolve("META-INF/native-image"))) {
                    files = s.filter(Files::isRegularFile).sorted().toList();
                }
                for (Path f : files) {
                    try (InputStream in = Files.newInputStream(f)) {
                        readConfigurationFile(entry, entry.relativize(f).toString(), in);
                    }
                }
            }
        }
    }

    void readConfigurationFile(Path entry, String name, InputStream in) throws IOException {
        for (Pattern[] excluded : excludedConfig) {
            if (excluded[0].matcher(entry.toString()).find() && excluded[1].matcher(name).find()) return;
        }
        String file = name.substring(name.lastIndexOf('/') + 1);
        String directory = name.substring(0, name.lastIndexOf('/'));
        if (file.equals("native-image.properties")) {
            Properties p = new Properties();
            String text = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            p.load(new StringReader(text.replace("${.}", directory)));
            String args = p.getProperty("Args");
            if (args != null) parse(List.of(args.trim().split("\\s+")), entry.getFileName() + "!/" + name);
            String javaArgs = p.getProperty("JavaArgs");
            if (javaArgs != null) builderJvmOptions.addAll(List.of(javaArgs.trim().split("\\s+")));
        } else if (file.equals("reachability-metadata.json")) {
            builderOptions.add("-H:ReachabilityMetadataResources=" + name);
        } else if (file.endsWith("-config.json")) {
            String kind = switch (file) {
                case "reflect-config.json" -> "Reflection";
                case "resource-config.json" -> "Resource";
                case "jni-config.json" -> "JNI";
                case "proxy-config.json" -> "DynamicProxy";
                case "serialization-config.json" -> "Serialization";
                case "predefined-classes-config.json" -> "PredefinedClasses";
                default -> null;
            };
            if (kind != null) builderOptions.add("-H:" + kind + "ConfigurationResources=" + name);
        }
    }

    int runBuilder() throws IOException, InterruptedException {
        if (mainClass == null) throw new IllegalArgumentException("no main class: give -jar with a Main-Class or a class name");
        if (imageName == null) imageName = mainClass.substring(mainClass.lastIndexOf('.') + 1).toLowerCase();
        Path builderJars = home.resolve("lib/svm/builder");
        List<Path> jars;
        try (Stream<Path> s = Files.list(builderJars)) {
            jars = s.filter(p -> p.toString().endsWith(".jar")).sorted().toList();
        }
        Path compiler = jars.stream().filter(p -> p.getFileName().toString().startsWith("compiler-")).findFirst().orElseThrow();
        List<Path> modulePath = jars.stream().filter(p -> p != compiler).toList();
        Path runtimeLibs = home.resolve("lib/svm/runtime-libs");

        List<String> cmd = new ArrayList<>();
        cmd.add(home.resolve("bin/java").toString());
        cmd.addAll(List.of("-XX:+UnlockExperimentalVMOptions", "-XX:+EnableJVMCI", "-XX:-UseJVMCICompiler",
                "-Xss10m", "-XX:+UseParallelGC", "-Djava.awt.headless=true", "-Dfile.encoding=UTF-8",
                "-Djdk.internal.lambda.disableEagerInitialization=true", "-Dcom.oracle.graalvm.isaot=true",
                "-Dorg.graalvm.nativeimage.imagecode=buildtime", "-Dorg.graalvm.vendorversion=" + VENDOR_VERSION,
                "-Djava.system.class.loader=com.oracle.svm.hosted.NativeImageSystemClassLoader",
                "-Djdk.module.main=org.graalvm.nativeimage.builder", "--illegal-native-access=allow"));
        Set<String> builderModules = moduleNames(modulePath);
        builderModules.add("jdk.graal.compiler");
        String targets = String.join(",", builderModules) + ",ALL-UNNAMED";
        cmd.add("--enable-native-access=" + targets);
        cmd.addAll(exportsOfAllSystemModules(targets));
        if (builderJvmOptions.stream().noneMatch(o -> o.startsWith("-Xmx"))) cmd.add("-Xmx6g");
        cmd.addAll(builderJvmOptions);
        cmd.add("--upgrade-module-path");
        cmd.add(compiler.toString());
        cmd.add("--module-path");
        cmd.add(modulePath.stream().map(Path::toString).collect(Collectors.joining(":")));
        cmd.add("--add-modules=ALL-DEFAULT");
        cmd.add("--module");
        cmd.add("org.graalvm.nativeimage.builder/com.oracle.svm.hosted.NativeImageGeneratorRunner");
        cmd.add("-imagecp");
        cmd.add(imageClassPath.stream().map(Path::toString).collect(Collectors.joining(":")));
        cmd.add("-H:Path=" + imageDir);
        cmd.add("-H:Name=" + imageName);
        cmd.add("-H:Class=" + mainClass);
        cmd.add("-H:ImageBuildID=" + UUID.randomUUID());
        cmd.add("-H:CLibraryPath=" + home.resolve("lib/svm/clibraries/linux-amd64/glibc"));
        // The JDK's own native code is linked as shared objects (see assemble-home.sh): found at run time in lib/
        // beside the executable, at link time in the home.
        cmd.add("-H:NativeLinkerOption=-Wl,-rpath-link," + runtimeLibs);
        cmd.add("-H:NativeLinkerOption=-Wl,-rpath,$ORIGIN/lib:" + runtimeLibs);
        cmd.add("-H:NativeLinkerOption=-Wl,--enable-new-dtags");
        cmd.addAll(builderOptions);
        if (System.getenv("FERRY_NATIVE_DRIVER_DEBUG") != null) System.err.println(String.join("\n", cmd));
        return new ProcessBuilder(cmd).inheritIO().start().waitFor();
    }

    static Set<String> moduleNames(List<Path> jars) {
        Set<String> names = new LinkedHashSet<>();
        for (ModuleReference r : ModuleFinder.of(jars.toArray(Path[]::new)).findAll()) names.add(r.descriptor().name());
        return names;
    }

    /** The builder reaches into JDK internals everywhere, as GraalVM's own driver allows it to. */
    static List<String> exportsOfAllSystemModules(String targets) {
        List<String> exports = new ArrayList<>();
        // Modules the builder does not resolve (jdk.hotspot.agent, jdk.jcmd) draw an "Unknown module" warning each.
        for (ModuleReference r : ModuleFinder.ofSystem().findAll()) {
            ModuleDescriptor d = r.descriptor();
            Set<String> unqualified = d.exports().stream().filter(e -> !e.isQualified()).map(ModuleDescriptor.Exports::source)
                    .collect(Collectors.toSet());
            for (String pkg : new TreeSet<>(d.packages())) {
                if (!unqualified.contains(pkg)) exports.add("--add-exports=" + d.name() + "/" + pkg + "=" + targets);
            }
        }
        return exports;
    }
}
