//! The built-in spec is embedded as JSON made from checks/ist2-boot.yaml at build time:
//! parsing JSON at start-up is several times cheaper than parsing YAML, and start-up
//! is most of the time a single grading takes.

fn main() {
    let src = "checks/ist2-boot.yaml";
    println!("cargo:rerun-if-changed={src}");
    let text = std::fs::read_to_string(src).expect("checks/ist2-boot.yaml is readable");
    // Errors are reported by the normal YAML path at run time (and by the tests); here
    // an unparseable spec simply embeds nothing usable.
    let json = serde_yaml::from_str::<serde_json::Value>(&text)
        .map(|v| serde_json::to_string(&v).expect("JSON"))
        .unwrap_or_default();
    let out = std::path::Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("ist2-boot.json");
    std::fs::write(out, json).expect("write the embedded spec");
}
