document.getElementById("root").textContent = "test app";
